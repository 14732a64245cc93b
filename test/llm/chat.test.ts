// The model endpoint client (src/llm/chat.ts) against real node:http servers that echo the
// API key back in every way a server can (README "Security boundaries"): messages hide the
// key before they cut, in every encoding; an answer is read up to a size cap, never whole.
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { chat, MAX_ANSWER_BYTES } from '../../src/llm/chat.js';
import { startServer, type TestServer } from '../helpers/http-server.js';

/** `/`, `+` and `=` make its URL-encoded, JSON `\/` and base64 forms differ from it. */
const KEY = 'sk-live/Ab+9xQ=7Tz42kLm0';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function endpoint(handler: (res: ServerResponse) => void | Promise<void>): Promise<string> {
  const srv = await startServer({ 'POST /v1/chat/completions': (_req, res) => handler(res) });
  servers.push(srv);
  return `${srv.url}/v1`;
}

async function failure(url: string): Promise<{ code: string; message: string }> {
  const err = (await chat([{ role: 'user', content: 'hi' }], { url, model: 'm', apiKey: KEY, rateLimitRetries: 0 }).then(
    () => {
      throw new Error('the request succeeded');
    },
    (e: unknown) => e,
  )) as { code: string; message: string };
  return err;
}

/** Every form of the key a message must not hold (and the key's longer pieces). */
function expectNoKey(message: string): void {
  const forms = [
    KEY,
    encodeURIComponent(KEY),
    KEY.replace(/\//g, '\\/'),
    Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
    [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    KEY.slice(0, 10), // a cut key's start
  ];
  for (const f of forms) expect(message, f).not.toContain(f);
}

describe('chat: an endpoint that echoes the key', () => {
  it('a 401 whose message holds the key after 190 characters: hidden, then cut', async () => {
    const url = await endpoint((res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `${'Incorrect API key provided. '.repeat(7).slice(0, 190)}${KEY} is not valid` } }));
    });
    const err = await failure(url);
    expect(err.code).toBe('E_LLM_AUTH');
    expect(err.message).toContain('Incorrect API key provided');
    expectNoKey(err.message);
  });

  it('its base64, URL-encoded, \\/ and \\u forms in an error body', async () => {
    const bodies = [
      { error: { message: `bad key ${Buffer.from(`user:${KEY}`).toString('base64')}` } },
      { error: { message: `bad key ${encodeURIComponent(KEY)}` } },
      `{"error":{"message":"bad key ${KEY.replace(/\//g, '\\/')}"}}`,
      `{"error":"bad key ${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
    ];
    for (const body of bodies) {
      const url = await endpoint((res) => {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      });
      const err = await failure(url);
      expect(err.code).toBe('E_LLM_AUTH');
      expect(err.message).toContain('bad key');
      expectNoKey(err.message);
    }
  });

  it('a non-JSON event, a non-JSON body and a 500 page that hold it', async () => {
    const cases: Array<[string, (res: ServerResponse) => void]> = [
      [
        'E_LLM_RESPONSE',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`data: <html>${'x'.repeat(150)} your key ${KEY} was logged</html>\n\ndata: [DONE]\n\n`);
        },
      ],
      [
        'E_LLM_RESPONSE',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(`${'y'.repeat(100)} key=${encodeURIComponent(KEY)} and ${KEY}`);
        },
      ],
      [
        'E_LLM_RESPONSE',
        (res) => {
          res.writeHead(500, { 'content-type': 'text/html' });
          res.end(`<p>${'z'.repeat(185)}${KEY}</p>`);
        },
      ],
    ];
    for (const [code, handler] of cases) {
      const err = await failure(await endpoint(handler));
      expect(err.code).toBe(code);
      expectNoKey(err.message);
    }
  });
});

/** Until the client took what was written, or went away. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

describe('chat: the size of an answer', () => {
  it('a 200 MB answer is refused at the cap: E_LLM_RESPONSE, the rest is never read', { timeout: 60_000 }, async () => {
    let sent = 0;
    const url = await endpoint(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = `data: ${JSON.stringify({ choices: [{ delta: { content: 'a'.repeat(64 * 1024) } }] })}\n\n`;
      while (sent < 200 * 1024 * 1024 && !res.destroyed) {
        sent += event.length;
        // wait for the client to take it (backpressure), as a real server does
        if (!res.write(event)) await drainedOrClosed(res);
      }
      res.end();
    });
    const before = process.memoryUsage().rss;
    const err = await failure(url);
    const grown = process.memoryUsage().rss - before;
    expect(err.code).toBe('E_LLM_RESPONSE');
    expect(err.message).toMatch(/larger than \d+ bytes/);
    // the server was stopped near the cap, far from the 200 MB it had to send
    expect(sent).toBeLessThan(MAX_ANSWER_BYTES + 16 * 1024 * 1024);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  });

  it('a JSON (non-streamed) answer over the cap too', { timeout: 60_000 }, async () => {
    const url = await endpoint((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let n = 0;
      const pump = () => {
        while (n < 200 && !res.destroyed) {
          n++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (n = 200));
      pump();
    });
    const err = await failure(url);
    expect(err.code).toBe('E_LLM_RESPONSE');
    expect(err.message).toMatch(/larger than/);
  });
});
