// Proxies from the environment, and TLS with a CA made at test time (openssl).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpClient, type TlsOptions } from '../../src/http/index.js';
import { makeCerts, startOpensslServer } from '../helpers/certs.js';
import { json, startProxy, startServer, type TestProxy, type TestServer } from '../helpers/http-server.js';

describe('proxy from the environment', () => {
  let srv: TestServer;
  let proxy: TestProxy;
  beforeAll(async () => {
    srv = await startServer({ '/hello': (req, res) => json(res, 200, { via: req.headers['x-forwarded-for'] ?? 'direct' }) });
    proxy = await startProxy();
  });
  afterAll(async () => {
    await srv.close();
    await proxy.close();
  });

  async function call(env: NodeJS.ProcessEnv): Promise<number> {
    const client = createHttpClient({ env });
    try {
      return (await client.send({ method: 'GET', url: `${srv.url}/hello`, headers: {} })).status;
    } finally {
      await client.close();
    }
  }

  test('HTTP_PROXY: the request goes through the proxy', async () => {
    proxy.seen.length = 0;
    const before = srv.count('/hello');
    expect(await call({ HTTP_PROXY: proxy.url })).toBe(200);
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toMatch(new RegExp(`^(CONNECT 127\\.0\\.0\\.1:${srv.port}|GET ${srv.url}/hello)$`));
    expect(srv.count('/hello')).toBe(before + 1);
  });

  test('lower-case http_proxy works too', async () => {
    proxy.seen.length = 0;
    expect(await call({ http_proxy: proxy.url })).toBe(200);
    expect(proxy.seen).toHaveLength(1);
  });

  test('NO_PROXY bypasses the proxy for a matching host', async () => {
    proxy.seen.length = 0;
    expect(await call({ HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' })).toBe(200);
    expect(proxy.seen).toHaveLength(0);
  });

  test('proxyFromEnv: false ignores the variables', async () => {
    proxy.seen.length = 0;
    const client = createHttpClient({ env: { HTTP_PROXY: proxy.url }, proxyFromEnv: false });
    try {
      expect((await client.send({ method: 'GET', url: `${srv.url}/hello`, headers: {} })).status).toBe(200);
    } finally {
      await client.close();
    }
    expect(proxy.seen).toHaveLength(0);
  });

  test('process.env is read by default', async () => {
    proxy.seen.length = 0;
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.url;
    try {
      const client = createHttpClient();
      await client.send({ method: 'GET', url: `${srv.url}/hello`, headers: {} });
      await client.close();
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
    expect(proxy.seen).toHaveLength(1);
  });
});

describe('TLS', () => {
  let dir: string;
  let https: TestServer;
  let mtls: TestServer;
  const pem = (name: string): string => readFileSync(path.join(dir, name), 'utf8');

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'reqflow-tls-'));
    makeCerts(dir);
    const route = { '/secure': (_req: unknown, res: import('node:http').ServerResponse) => json(res, 200, { secure: true }) };
    https = await startServer(route, { tls: { key: pem('server.key'), cert: pem('server.crt') } });
    mtls = await startServer(route, {
      tls: { key: pem('server.key'), cert: pem('server.crt'), ca: pem('ca.crt'), requestCert: true, rejectUnauthorized: true },
    });
  });
  afterAll(async () => {
    await https?.close();
    await mtls?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(url: string, tls?: TlsOptions) {
    const client = createHttpClient({ tls, proxyFromEnv: false });
    try {
      return await client.send({ method: 'GET', url: `${url}/secure`, headers: {}, timeoutMs: 5000 });
    } finally {
      await client.close();
    }
  }

  test('a server signed by an unknown CA: E_TLS', async () => {
    const err = await send(https.url).then(
      () => undefined,
      (e: { code: string; details?: { cause?: string } }) => e,
    );
    expect(err?.code).toBe('E_TLS');
    expect(['SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']).toContain(err?.details?.cause);
  });

  test('with the CA given: 200', async () => {
    const res = await send(https.url, { ca: pem('ca.crt') });
    expect(res.json()).toEqual({ secure: true });
  });

  test('rejectUnauthorized: false accepts it', async () => {
    expect((await send(https.url, { rejectUnauthorized: false })).status).toBe(200);
  });

  test('mTLS: a client certificate is presented', async () => {
    const res = await send(mtls.url, { ca: pem('ca.crt'), cert: pem('client.crt'), key: pem('client.key') });
    expect(res.status).toBe(200);
  });

  // what to check, in every refusal of a client certificate
  const CHECK =
    /check that the actor's mtls cert_path was issued by a CA the server trusts \(not another one\), that it has not expired .*and that key_path is its key/;
  const rogue = () => ({ ca: pem('ca.crt'), cert: pem('rogue.crt'), key: pem('rogue.key') });
  const failure = (url: string, tls: TlsOptions) =>
    send(url, tls).then(
      () => undefined,
      (e: { code: string; message: string; details?: { cause?: string } }) => e,
    );

  test("mTLS: a client certificate from another CA is E_TLS with what to check (Node's server, TLS 1.3: the connection closes after the handshake)", async () => {
    const err = await failure(mtls.url, rogue());
    expect(err?.code).toBe('E_TLS');
    expect(err?.message).toContain('closed the connection right after the TLS handshake, before any answer');
    expect(err?.message).toMatch(CHECK);
  });

  test.each([
    ['-tls1_3', /closed the connection right after the TLS handshake/],
    ['-tls1_2', /refused the TLS connection \(alert "unknown ca", ERR_SSL_TLSV1_ALERT_UNKNOWN_CA\)/],
  ])('mTLS: a client certificate from another CA against openssl s_server %s: E_TLS with what to check', async (version, how) => {
    const server = await startOpensslServer(dir, [version]);
    try {
      const err = await failure(server.url, rogue());
      expect(err?.code).toBe('E_TLS');
      expect(err?.message).toMatch(how);
      expect(err?.message).toMatch(CHECK);
      // the right certificate passes on the same server: the refusal was the certificate's
      expect((await send(server.url, { ca: pem('ca.crt'), cert: pem('client.crt'), key: pem('client.key') })).status).toBe(200);
    } finally {
      server.close();
    }
  });

  test('mTLS without a client certificate is E_TLS that says to give one (TLS 1.3: the server closes the connection)', async () => {
    const err = await send(mtls.url, { ca: pem('ca.crt') }).then(
      () => undefined,
      (e: { code: string; message: string }) => e,
    );
    expect(err?.code).toBe('E_TLS');
    expect(err?.message).toContain('closed the connection right after the TLS handshake, before any answer');
    expect(err?.message).toContain('give the actor mtls auth (cert_path and key_path)');
  });

  test.each([['-tls1_3'], ['-tls1_2']])('mTLS without a client certificate against openssl s_server %s: E_TLS that says to give one', async (version) => {
    const server = await startOpensslServer(dir, [version]);
    try {
      const err = await failure(server.url, { ca: pem('ca.crt') });
      expect(err?.code).toBe('E_TLS');
      expect(err?.message).toContain('give the actor mtls auth (cert_path and key_path)');
    } finally {
      server.close();
    }
  });
});
