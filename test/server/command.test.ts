// The server command as messages show it: credentials given by name (an assignment, an option,
// a header, a URL's password) are hidden, then the text is cut; the values are what the
// server gets (quotes removed), for the run's redactor.
import { describe, expect, test } from 'vitest';
import { commandSecrets, shownCommand } from '../../src/server/command.js';
import { createRedactor } from '../../src/redact/index.js';

const shown = (command: string, secrets: string[] = []) => shownCommand(command, createRedactor(secrets));

describe('shownCommand', () => {
  test.each([
    ['DB_PASSWORD=hunter2 node api.js', 'DB_PASSWORD=*** node api.js', ['hunter2']],
    ['export API_TOKEN="sk live 42"; node api.js', 'export API_TOKEN=***; node api.js', ['sk live 42']],
    ["env SECRET_KEY='a b' PORT=3000 node api.js", 'env SECRET_KEY=*** PORT=3000 node api.js', ['a b']],
    ['node api.js --api-key=sk-0123 --port 3000', 'node api.js --api-key=*** --port 3000', ['sk-0123']],
    ['node api.js --password Zq9 -v', 'node api.js --password *** -v', ['Zq9']],
    ['DATABASE_URL=postgres://app:pw9@db:5432/app node api.js', 'DATABASE_URL=postgres://app:***@db:5432/app node api.js', ['pw9']],
    [
      `node api.js -H 'Authorization: Bearer abc.def' -H 'Accept: text/plain'`,
      `node api.js -H 'Authorization: ***' -H 'Accept: text/plain'`,
      ['Bearer abc.def'],
    ],
  ])('%s', (command, expected, secrets) => {
    expect(shown(command)).toBe(expected);
    expect(commandSecrets(command)).toEqual(secrets);
  });

  test('a reference to a variable is not a secret, and names that only look like credentials are kept', () => {
    expect(shown('DB_PASSWORD=$PW TOKEN_URL=http://x/token node api.js --token-type bearer')).toBe(
      'DB_PASSWORD=$PW TOKEN_URL=http://x/token node api.js --token-type bearer',
    );
    expect(commandSecrets('DB_PASSWORD=${PW} node api.js')).toEqual([]);
  });

  test("the redactor's secrets are hidden too (a FLOW_SECRET_* value pasted into the command)", () => {
    expect(shown('node api.js --db s3cr3t-v4lue-1234', ['s3cr3t-v4lue-1234'])).toBe('node api.js --db ***');
  });

  test('hidden before it is cut: a secret across the cut leaves none of its characters', () => {
    const secret = 'sk-live-9f8e7d6c5b4a39281706';
    const command = `${'x'.repeat(190)} --token ${secret}`;
    const text = shown(command);
    expect(text).not.toContain('sk-');
    expect(text.length).toBeLessThanOrEqual(201);
    expect(text.endsWith('…')).toBe(true);
  });
});
