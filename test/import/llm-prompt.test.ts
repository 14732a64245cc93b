// What `flow import --llm` sends to the model: a credential the readers saw in the input is
// hidden in every spelling the input has it in (a hosted model is an output like any other).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readInput } from '../../src/import/index.js';
import { firstRequest } from '../../src/import/llm/prompt.js';
import { tempDir } from './helpers.js';

it('hides a credential written URL-encoded or JSON-escaped in the input, not only as is', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const file = path.join(dir, 'calls.sh');
    const text = [
      // "Copy as cURL" percent-encodes a key with + and /
      `curl 'https://api.example.test/v1/items?api_key=AbC%2BdEf%2FgHiJ12' -H 'Accept: application/json'`,
      // a password with a quote, JSON-escaped in the body
      `curl -X POST 'https://api.example.test/v1/login' -H 'Content-Type: application/json' -d '{"user":"bob","password":"pa\\"ss-w0rd-9"}'`,
      '',
    ].join('\n');
    await writeFile(file, text);
    const api = await readInput(file, { cwd: dir });
    expect([...api.credentials].sort()).toEqual(['AbC+dEf/gHiJ12', 'pa"ss-w0rd-9']);
    const sent = firstRequest([{ file: 'calls.sh', text }], api);
    for (const spelling of ['AbC+dEf/gHiJ12', 'AbC%2BdEf%2FgHiJ12', 'pa"ss-w0rd-9', 'pa\\"ss-w0rd-9']) expect(sent).not.toContain(spelling);
    expect(sent).toContain('api_key=***');
  } finally {
    await cleanup();
  }
});
