// Every encoding the client decodes (src/http/decompress.ts), each sent by a real server the
// way servers send it: the whole body at once, and in small chunks. gzip's size cap and bad
// bodies are in client.test.ts; here, that br and deflate decode at all, and with the cap.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/http/index.js';
import { startServer, type TestServer } from '../helpers/http-server.js';

const PAYLOAD = JSON.stringify({ encoded: true, text: 'héllo '.repeat(2000) });
const ENCODERS: Record<string, (b: Buffer) => Buffer> = {
  br: (b) => brotliCompressSync(b),
  deflate: (b) => deflateSync(b),
  gzip: (b) => gzipSync(b),
  'x-gzip': (b) => gzipSync(b),
};
const BOMB_BYTES = 2 * 1024 * 1024;

let srv: TestServer;
let client: HttpClient;

beforeAll(async () => {
  srv = await startServer({
    // /enc?name=<content-encoding>&as=<encoder>&chunks=<n>
    '/enc': (req, res) => {
      const name = req.query.get('name')!;
      const encode = ENCODERS[req.query.get('as') ?? name];
      const big = req.query.get('bomb') === '1';
      const body = encode(big ? Buffer.alloc(BOMB_BYTES, 'b') : Buffer.from(PAYLOAD));
      res.writeHead(200, { 'content-type': big ? 'text/plain' : 'application/json', 'content-encoding': name });
      // several writes: the decoder gets the compressed bytes in pieces, as from a network
      const chunks = Number(req.query.get('chunks') ?? 1);
      const size = Math.ceil(body.length / chunks);
      for (let at = 0; at < body.length; at += size) res.write(body.subarray(at, at + size));
      res.end();
    },
  });
  client = createHttpClient({ proxyFromEnv: false });
});

afterAll(async () => {
  await client.close();
  await srv.close();
});

const get = (query: string, c: HttpClient = client) => c.send({ method: 'GET', url: `${srv.url}/enc?${query}`, headers: {} });

describe('content-encoding', () => {
  test.each(['br', 'deflate', 'gzip', 'x-gzip'])('%s: the body is decoded, whole or in pieces; the header stays as received', async (name) => {
    for (const chunks of [1, 7]) {
      const res = await get(`name=${name}&chunks=${chunks}`);
      expect(res.json()).toEqual(JSON.parse(PAYLOAD));
      expect(res.truncated).toBe(false);
      expect(res.headers['content-encoding']).toBe(name);
    }
  });

  test('the name is read without case or surrounding spaces', async () => {
    expect((await get(`name=${encodeURIComponent(' BR ')}&as=br`)).json()).toEqual(JSON.parse(PAYLOAD));
    expect((await get('name=Deflate&as=deflate')).json()).toEqual(JSON.parse(PAYLOAD));
  });

  test.each(['br', 'deflate'])('%s: the size cap counts decoded bytes: cut at the cap and marked truncated', async (name) => {
    const small = createHttpClient({ maxBodyBytes: 64 * 1024, proxyFromEnv: false });
    try {
      const cut = await get(`name=${name}&bomb=1`, small);
      expect(cut.truncated).toBe(true);
      expect(cut.body.length).toBe(64 * 1024);
      expect(cut.body.every((b) => b === 0x62)).toBe(true);
    } finally {
      await small.close();
    }
  });
});
