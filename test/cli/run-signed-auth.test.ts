// `flow run --verbose` with the signed strategies against a server that echoes every credential
// it receives back in a 401 body: nothing the strategies send or hold appears in the output.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer({ '*': (req, res) => json(res, 401, { youSent: req.headers, body: req.text() }) });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

const SECRETS = {
  JWT_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  OAUTH1_CS: 'oauth1-consumer-secret-value',
  OAUTH1_TOKEN: 'oauth1-access-token-value',
  OAUTH1_TS: 'oauth1-token-secret-value',
  AWS_SK: 'aws-secret-access-key-value',
  AWS_TOKEN: 'aws-session-token-value',
};

it('--verbose: requests, 401 bodies echoing the headers, and errors show no secret, token or signature', async () => {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nname: signed\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
    'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
    'actors/j.yaml': 'name: j\nauth:\n  strategy: jwt\n  algorithm: ES256\n  secret: "{{secret.JWT_KEY}}"\n  payload: { aud: x }\n',
    'actors/o.yaml':
      'name: o\nauth:\n  strategy: oauth1\n  consumer_key: ck\n  consumer_secret: "{{secret.OAUTH1_CS}}"\n  token: "{{secret.OAUTH1_TOKEN}}"\n  token_secret: "{{secret.OAUTH1_TS}}"\n',
    'actors/a.yaml':
      'name: a\nauth:\n  strategy: aws_sigv4\n  access_key: AKIDX\n  secret_key: "{{secret.AWS_SK}}"\n  session_token: "{{secret.AWS_TOKEN}}"\n  region: us-east-1\n  service: execute-api\n',
    'resources/r.yaml': `name: r\noperations:\n  j: { path: /j, actor: j }\n  o: { method: POST, path: /o, actor: o, body_form: { a: "1" } }\n  a: { path: /a, actor: a }\n`,
  });
  const env = Object.fromEntries(Object.entries(SECRETS).map(([k, v]) => [`FLOW_SECRET_${k}`, v]));
  const rec = recordedIO({ cwd: dir, env });
  const code = await main(['run', 'r.j', 'r.o', 'r.a', '--verbose', '--var', `baseUrl=${srv.url}`], rec.io);
  expect(code).toBe(1); // three 401s
  const output = rec.out() + rec.err();
  expect(output).toContain('E_STATUS_MISMATCH');
  expect(output).toContain('youSent'); // the echoed bodies are shown…
  const sent = srv.requests.flatMap((r) => [String(r.headers.authorization), String(r.headers['x-amz-security-token'] ?? '')]);
  const jwt = /^Bearer (.+)$/.exec(sent[0])![1];
  const oauthSignature = decodeURIComponent(/oauth_signature="([^"]+)"/.exec(sent[2])![1]);
  const awsSignature = /Signature=([0-9a-f]{64})/.exec(sent[4])![1];
  // …but none of what they echo, nor any secret
  for (const value of [...Object.values(SECRETS), jwt, oauthSignature, awsSignature, 'BEGIN PRIVATE KEY']) expect(output).not.toContain(value);
});
