// mtls through the runner against a node:https server that requires a client certificate
// from its CA (certificates made by openssl for this test). Each actor with mtls has its own
// agent; other requests of the same run keep the default one.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { KEY_PASSWORD, makeCerts, OPENSSL_INSTALL, opensslMissing } from '../helpers/certs.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { describeWhenAvailable } from '../helpers/needs.js';
import { closeRunners, envFile, load, ROOT } from '../runner/helpers.js';

const missing = opensslMissing();

let dir: string;
let srv: TestServer;

beforeAll(async () => {
  if (missing) return;
  dir = await mkdtemp(path.join(tmpdir(), 'reqflow-mtls-'));
  makeCerts(dir);
  const f = (n: string) => readFile(path.join(dir, n));
  srv = await startServer(
    { '*': (_req, res, raw) => json(res, 200, { subject: (raw.socket as TLSSocket).getPeerCertificate().subject }) },
    { tls: { key: await f('server.key'), cert: await f('server.crt'), ca: await f('ca.crt'), requestCert: true, rejectUnauthorized: true } },
  );
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const actor = (name: string, keys: Record<string, string>) =>
  [`name: ${name}`, 'auth:', '  strategy: mtls', ...Object.entries(keys).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`), ''].join('\n');

const PEM = () => ({ cert_path: path.join(dir, 'client.crt'), key_path: path.join(dir, 'client.key'), ca_cert_path: path.join(dir, 'ca.crt') });

async function run(actors: Record<string, Record<string, string>>, ops: string[]) {
  const files: Record<string, string> = { 'flow.yaml': ROOT, 'environments/test.yaml': envFile({ baseUrl: srv.url }) };
  for (const [name, keys] of Object.entries(actors)) files[`actors/${name}.yaml`] = actor(name, keys);
  files['resources/api.yaml'] = [
    'name: api',
    'operations:',
    ...Object.keys(actors).map((a) => `  as_${a}: { path: /whoami, actor: ${a}, assert: [ "$.data.subject.O == 'api-tester'" ] }`),
    '  anonymous: { path: /whoami }',
    '',
  ].join('\n');
  const { runner, events } = await load(files, { secrets: { KEY_PW: KEY_PASSWORD, BAD_PW: 'not-the-password' } });
  const summary = await runner.runMany(ops);
  return { results: Object.fromEntries(summary.results.map((r) => [r.operation, r])), events };
}

describeWhenAvailable(
  'mtls against a node:https server requiring client certificates',
  missing && `needs openssl: ${missing}; install with: ${OPENSSL_INSTALL}`,
  () => {
    test('PEM identity and a p12 bundle pass; in the same run an actor from another CA and a request without actor fail', async () => {
      const { results, events } = await run(
        {
          pem: PEM(),
          enc: { ...PEM(), key_path: path.join(dir, 'client-enc.key'), key_password: '{{secret.KEY_PW}}' },
          p12: { cert_path: path.join(dir, 'client.p12'), format: 'p12', key_password: '{{secret.KEY_PW}}', ca_cert_path: path.join(dir, 'ca.crt') },
          rogue: { cert_path: path.join(dir, 'rogue.crt'), key_path: path.join(dir, 'rogue.key'), ca_cert_path: path.join(dir, 'ca.crt') },
        },
        ['api.as_pem', 'api.as_enc', 'api.as_p12', 'api.as_rogue', 'api.anonymous'],
      );
      expect([results['api.as_pem'].status, results['api.as_enc'].status, results['api.as_p12'].status]).toEqual(['passed', 'passed', 'passed']);
      // the server refuses the rogue certificate; with TLS 1.3 the refusal comes after the
      // handshake, mostly as a closed connection: E_TLS, with what to check
      expect(results['api.as_rogue'].status).toBe('failed');
      expect(results['api.as_rogue'].error?.code).toBe('E_TLS');
      expect(results['api.as_rogue'].error?.message).toContain("check that the actor's mtls cert_path was issued by a CA the server trusts");
      // no actor: the default agent, with no client certificate and no trust in the test CA
      expect(results['api.anonymous'].error?.code).toBe('E_TLS');
      expect(JSON.stringify(events)).not.toContain(KEY_PASSWORD);
      expect(JSON.stringify(events)).not.toContain('PRIVATE KEY');
    });

    test.each([
      {
        name: 'a wrong key password (encrypted PEM)',
        keys: () => ({ ...PEM(), key_path: path.join(dir, 'client-enc.key'), key_password: '{{secret.BAD_PW}}' }),
        message: /mtls auth of actor a has a `key_password` that does not decrypt key_path .*client-enc\.key$/,
      },
      {
        name: 'an encrypted key and no password',
        keys: () => ({ ...PEM(), key_path: path.join(dir, 'client-enc.key') }),
        message: /has an encrypted key_path .*client-enc\.key and no `key_password`$/,
      },
      {
        name: 'a wrong p12 password',
        keys: () => ({ cert_path: path.join(dir, 'client.p12'), format: 'pfx', key_password: '{{secret.BAD_PW}}' }),
        message: /has a `key_password` that does not open cert_path .*client\.p12$/,
      },
      {
        name: 'an unreadable file',
        keys: () => ({ ...PEM(), cert_path: path.join(dir, 'missing.crt') }),
        message: /cannot read cert_path .*missing\.crt \(ENOENT\)$/,
      },
      {
        name: "a key that is not the certificate's",
        keys: () => ({ ...PEM(), key_path: path.join(dir, 'rogue.key') }),
        message: /key_path .*rogue\.key that is not the key of cert_path .*client\.crt$/,
      },
      {
        name: 'a certificate file that is a key',
        keys: () => ({ ...PEM(), cert_path: path.join(dir, 'client.key') }),
        message: /cert_path .*client\.key that is not a PEM certificate$/,
      },
    ])('$name: E_AUTH naming the file, before any request, never its content', async ({ keys, message }) => {
      const before = srv.requests.length;
      const { results, events } = await run({ a: keys() }, ['api.as_a']);
      const err = results['api.as_a'].error!;
      expect(err.code).toBe('E_AUTH');
      expect(err.message).toMatch(message);
      expect(srv.requests.length).toBe(before);
      const out = JSON.stringify([err, events]);
      expect(out).not.toContain('not-the-password');
      expect(out).not.toContain('BEGIN');
    });
  },
);
