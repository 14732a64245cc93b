// One vocabulary of credential names (src/project/credentials.ts): what redaction hides, what
// lint reports, what `lint --fix` turns into a secret and what the import's self-check asks to be
// a secret are the same names. Before, each had its own list and they disagreed (redaction kept
// `db_password` and `consumer_key` that lint reported; lint missed `X-Gitea-OTP`).
import { afterEach, describe, expect, it } from 'vitest';
import { isCredentialHeaderName, isCredentialName } from '../../src/project/credentials.js';
import { loadProject } from '../../src/project/index.js';
import { lint } from '../../src/lint/index.js';
import { fixProject } from '../../src/lint/fix/index.js';
import { selfCheck, viewOfDirectory } from '../../src/import/check/index.js';
import { createRedactor, isCredentialHeader } from '../../src/redact/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterEach(cleanProjects);

const CREDENTIALS = [
  'password',
  'db_password',
  'client_secret',
  'consumer_key',
  'secret_key',
  'access_token',
  'X-Auth-Token',
  'api_key',
  'apiKey',
  'private_key',
  'session_id',
  'X-Gitea-OTP',
  'key',
  'pwd',
];
const NOT_CREDENTIALS = ['token_type', 'token_url', 'key_id', 'username', 'client_id', 'name', 'monkey', 'password_policy'];

function project(names: string[]): Record<string, string> {
  const body = names.map((n, i) => `      ${JSON.stringify(n)}: "plain-value-${i}"`).join('\n');
  return {
    'flow.yaml': 'version: 1\nname: t\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
    'environments/dev.yaml': 'name: dev\nvariables:\n  baseUrl: http://127.0.0.1:1\n',
    'resources/things.yaml': `name: thing\noperations:\n  create:\n    method: POST\n    path: /things\n    body:\n${body}\n    _provenance: {source: ai_import, evidence: {operation: x}, verified_against: synthetic}\n`,
  };
}

describe('credential names: one vocabulary', () => {
  it('redaction, lint, lint --fix and the import self-check name the same fields', async () => {
    const names = [...CREDENTIALS, ...NOT_CREDENTIALS];
    const dir = await writeProject(project(names));

    const redactor = createRedactor([]);
    const shown = redactor.value(Object.fromEntries(names.map((n) => [n, 'v']))) as Record<string, unknown>;
    const hidden = names.filter((n) => shown[n] === '***');

    const linted = lint(await loadProject(dir))
      .diagnostics.filter((d) => d.code === 'W_PLAINTEXT_SECRET')
      .map((d) => /^"(.+?)" holds/.exec(d.message)?.[1]);

    const { view } = await viewOfDirectory(dir);
    const checked = selfCheck(view)
      .filter((f) => f.code === 'E_CHECK_PLAINTEXT_SECRET')
      .map((f) => f.where.split('.').at(-1));

    const fixed = (await fixProject(await loadProject(dir))).fixes.filter((f) => f.code === 'FIX_SECRET').length;

    expect(hidden.sort()).toEqual([...CREDENTIALS].sort());
    expect(linted.sort()).toEqual([...CREDENTIALS].sort());
    expect(checked.sort()).toEqual([...CREDENTIALS].sort());
    expect(fixed).toBe(0); // --fix rewrites environment and actor credentials only; a body keeps its reference shape
  });

  it('a header carries a key by name; every credential name is a credential header', () => {
    for (const n of CREDENTIALS) expect(isCredentialHeader(n), n).toBe(true);
    expect(isCredentialHeaderName('X-Client-Key')).toBe(true);
    expect(isCredentialName('X-Client-Key')).toBe(false);
    expect(isCredentialHeader('Content-Type')).toBe(false);
  });
});
