// aws_sigv4: AWS's published SigV4 test vectors (signed by @smithy/signature-v4 through the
// strategy), then through the runner against @20minutes/s3rver, which verifies signatures.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import type { PreparedRequest } from '../../src/http/index.js';
import { describeWhenAvailable } from '../helpers/needs.js';
import { serverMissing, serverPath } from '../helpers/test-servers.js';
import { closeRunners, envFile, load, ROOT } from '../runner/helpers.js';
import { loadActor, makeAuthContext, rejection } from './context.js';

const AKID = 'AKIDEXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';

describe('AWS SigV4 test suite vectors (aws-sig-v4-test-suite, 20150830T123600Z)', () => {
  const yaml = `name: svc\nauth:\n  strategy: aws_sigv4\n  access_key: ${AKID}\n  secret_key: "{{secret.AWS_SECRET}}"\n  region: us-east-1\n  service: service\n`;
  test.each([
    { name: 'get-vanilla', url: 'https://example.amazonaws.com/', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31' },
    {
      name: 'get-vanilla-query-order-key-case',
      url: 'https://example.amazonaws.com/?Param2=value2&Param1=value1',
      signature: 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500',
    },
  ])('$name', async ({ url, signature }) => {
    const actor = await loadActor(yaml);
    const t = makeAuthContext({ baseUrl: 'https://example.amazonaws.com', actor, secrets: { AWS_SECRET: SECRET } });
    t.ctx.now = () => Date.UTC(2015, 7, 30, 12, 36, 0);
    const strategy = strategyFor('aws_sigv4');
    const session = await strategy.login(actor.auth!, t.ctx);
    const req: PreparedRequest = { method: 'GET', url: new URL(url), headers: {} };
    await strategy.apply(req, actor.auth!, session, t.ctx);
    expect(req.headers['x-amz-date']).toBe('20150830T123600Z');
    expect(req.headers.authorization).toBe(
      `AWS4-HMAC-SHA256 Credential=${AKID}/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`,
    );
    expect(t.redacted).toContain(SECRET);
  });

  test('a missing region is E_AUTH, before any request', async () => {
    const actor = await loadActor(yaml.replace('  region: us-east-1\n', ''));
    const t = makeAuthContext({ baseUrl: 'http://x', actor, secrets: { AWS_SECRET: SECRET } });
    const err = await rejection(strategyFor('aws_sigv4').login(actor.auth!, t.ctx));
    expect([err.code, err.message]).toEqual(['E_AUTH', 'aws_sigv4 auth of actor svc has no `region` (us-east-1, eu-west-3…)']);
  });
});

const S3_KEY = 'AKIDREQFLOWTEST';
const S3_SECRET = 'reqflow-s3-secret-0123456789abcdef';
let s3: { url: string; child: ChildProcess; dir: string } | undefined;

const OPS = [
  'name: object',
  'operations:',
  '  put:',
  '    method: PUT',
  '    path: /test-bucket/notes/hello%20w%C3%B6rld.json',
  '    actor: s3user',
  '    body: { hello: world }',
  '  get:',
  '    path: /test-bucket/notes/hello%20w%C3%B6rld.json',
  '    actor: s3user',
  '    depends_on: [object.put]',
  '    assert: [ "$.data.hello == \'world\'" ]',
  '  list:',
  '    path: /test-bucket',
  '    actor: s3user',
  '    depends_on: [object.put]',
  '    query_params: { list-type: "2", prefix: "notes/" }',
  '    assert: [ "$.body contains \'<Key>notes/hello wörld.json</Key>\'" ]',
  '',
].join('\n');

const actorYaml = (extra = '') =>
  `name: s3user\nauth:\n  strategy: aws_sigv4\n  access_key: ${S3_KEY}\n  secret_key: "{{secret.S3_SECRET}}"\n  region: us-east-1\n  service: s3\n${extra}`;

function project(secret: string, extra = '') {
  return load(
    { 'flow.yaml': ROOT, 'environments/test.yaml': envFile({ baseUrl: s3!.url }), 'actors/s3user.yaml': actorYaml(extra), 'resources/object.yaml': OPS },
    { secrets: { S3_SECRET: secret, S3_TOKEN: 'temporary-session-token-xyz' } },
  );
}

describeWhenAvailable('aws_sigv4 against @20minutes/s3rver (verifies SigV4)', serverMissing('@20minutes/s3rver'), () => {
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-s3-'));
    const child = spawn(
      process.execPath,
      [path.resolve(__dirname, '../fixtures/auth/s3-start.cjs'), serverPath('@20minutes/s3rver'), dir, S3_KEY, S3_SECRET, 'test-bucket'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /LISTENING (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}: ${out}`)));
    });
    s3 = { url, child, dir };
  });

  afterAll(async () => {
    await closeRunners();
    s3?.child.kill();
    if (s3) await rm(s3.dir, { recursive: true, force: true });
  });

  test('PUT an object (a key with a space and non-ASCII), GET it back, list the bucket', async () => {
    const { runner, events } = await project(S3_SECRET);
    const r = await runner.runMany(['object.get', 'object.list']);
    expect(r.results.map((x) => [x.operation, x.status, x.error?.message])).toEqual([
      ['object.get', 'passed', undefined],
      ['object.list', 'passed', undefined],
    ]);
    const put = events.find((e) => e.type === 'request' && e.purpose === 'object.put');
    expect(put?.type === 'request' && put.response?.status).toBe(200); // the prerequisite, signed too
    expect(put?.type === 'request' && put.request.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(events)).not.toContain(S3_SECRET);
  });

  test('a wrong secret: 403 SignatureDoesNotMatch -> E_STATUS_MISMATCH, never a pass; the secret is not shown', async () => {
    const { runner, events } = await project('wrong-secret-value-0000');
    const r = await runner.run('object.put');
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('E_STATUS_MISMATCH');
    expect(r.error?.message).toMatch(/403/);
    const out = JSON.stringify([r, events]);
    expect(out).toContain('SignatureDoesNotMatch');
    expect(out).not.toContain('wrong-secret-value-0000');
    // S3 quotes the signature back: registered for redaction as it was made
    expect(out).not.toMatch(/<SignatureProvided>[0-9a-f]/);
  });

  test('temporary credentials: x-amz-security-token is signed and sent, and never shown', async () => {
    const { runner, events } = await project(S3_SECRET, '  session_token: "{{secret.S3_TOKEN}}"\n');
    const r = await runner.run('object.put');
    expect(r.status, JSON.stringify(r.error)).toBe('passed');
    const put = events.find((e) => e.type === 'request' && e.purpose === 'object.put');
    expect(put?.type === 'request' && put.request.headers['x-amz-security-token']).toBe('***');
    expect(JSON.stringify(events)).not.toContain('temporary-session-token-xyz');
  });
});
