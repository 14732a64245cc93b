// Lint knows each strategy's keys (issue 17): a missing required key, a key of another
// strategy, a credential in plain text and an mtls file that does not exist, each at file:line.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanProjects } from '../helpers/project.js';
import { found, lintFiles, y } from './helpers.js';

afterAll(() => cleanProjects());

const actor = (...lines: string[]) => ({ 'actors/a.yaml': y('name: a', 'auth:', ...lines.map((l) => `  ${l}`)) });

describe('auth keys per strategy', () => {
  test.each([
    { strategy: 'oauth1', lines: ['strategy: oauth1', 'consumer_key: "{{secret.CK}}"'], missing: 'consumer_secret' },
    { strategy: 'aws_sigv4', lines: ['strategy: aws_sigv4', 'access_key: "{{secret.AK}}"', 'secret_key: "{{secret.SK}}"', 'service: s3'], missing: 'region' },
    { strategy: 'jwt', lines: ['strategy: jwt', 'payload: { sub: a }'], missing: 'secret' },
    { strategy: 'mtls', lines: ['strategy: mtls', 'cert_path: "{{env.CERT}}"'], missing: 'key_path' },
  ])('$strategy without $missing: E_SCHEMA at auth', async ({ lines, missing }) => {
    const { dir, result } = await lintFiles(actor(...lines));
    expect(found(dir, result, 'E_SCHEMA')).toEqual(['actors/a.yaml:2:1 E_SCHEMA']);
    expect(result.diagnostics.find((d) => d.code === 'E_SCHEMA')?.message).toBe(`auth is missing the required key "${missing}"`);
  });

  test('mtls with format p12 needs no key_path', async () => {
    const { result } = await lintFiles(actor('strategy: mtls', 'format: p12', 'cert_path: "{{env.P12}}"', 'key_password: "{{secret.PW}}"'));
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('a key of another strategy: W_UNKNOWN_KEY naming the strategy that reads it', async () => {
    const { dir, result } = await lintFiles(actor('strategy: jwt', 'secret: "{{secret.JWT}}"', 'secret_key: "{{secret.SK}}"', 'signature_method: HMAC-SHA1'));
    expect(found(dir, result, 'W_UNKNOWN_KEY')).toEqual(['actors/a.yaml:5:3 W_UNKNOWN_KEY', 'actors/a.yaml:6:3 W_UNKNOWN_KEY']);
    const messages = result.diagnostics.filter((d) => d.code === 'W_UNKNOWN_KEY').map((d) => d.message);
    expect(messages[0]).toMatch(/^unknown key "secret_key" is ignored: it is a key of strategy aws_sigv4, not of this one/);
    expect(messages[1]).toMatch(/^unknown key "signature_method" is ignored: it is a key of strategy oauth1, not of this one/);
  });

  test.each([
    ['jwt', 'secret', 'hs-literal-secret'],
    ['oauth1', 'consumer_secret', 'cs-literal'],
    ['aws_sigv4', 'secret_key', 'sk-literal'],
    ['mtls', 'key_password', 'pw-literal'],
  ])('%s: %s in plain text is W_PLAINTEXT_SECRET at its line, the value never printed', async (strategy, key, value) => {
    const { dir, result } = await lintFiles(actor(`strategy: ${strategy}`, `${key}: ${value}`));
    expect(found(dir, result, 'W_PLAINTEXT_SECRET')).toContain(`actors/a.yaml:4:${key.length + 5} W_PLAINTEXT_SECRET`);
    expect(JSON.stringify(result)).not.toContain(value);
  });

  test('an mtls cert_path or ca_cert_path that names no file: E_AUTH_FILE_NOT_FOUND at the key; an existing one and a templated one pass', async () => {
    const { dir, result } = await lintFiles({
      ...actor('strategy: mtls', 'cert_path: certs/client.crt', 'key_path: certs/missing.key', 'ca_cert_path: "{{env.CA}}"'),
      'certs/.keep': '',
    });
    expect(found(dir, result, 'E_AUTH_FILE_NOT_FOUND')).toEqual(['actors/a.yaml:4:14 E_AUTH_FILE_NOT_FOUND', 'actors/a.yaml:5:13 E_AUTH_FILE_NOT_FOUND']);
    await writeFile(path.join(dir, 'certs/client.crt'), 'x');
    const { lint } = await import('../../src/lint/index.js');
    const { loadProject } = await import('../../src/project/index.js');
    const again = lint(await loadProject(dir));
    expect(found(dir, again, 'E_AUTH_FILE_NOT_FOUND')).toEqual(['actors/a.yaml:5:13 E_AUTH_FILE_NOT_FOUND']);
    expect(again.diagnostics.find((d) => d.code === 'E_AUTH_FILE_NOT_FOUND')?.message).toMatch(/^key_path certs\/missing\.key is not a file/);
  });
});
