// The input formats are one list (INPUT_FORMATS); what each format needs is keyed by it: a
// reader, an independent request count for the coverage check, a name in messages.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanRequests } from '../../src/import/check/coverage.js';
import { importApi } from '../../src/import/index.js';
import { FORMAT_NAMES, INPUT_FORMATS } from '../../src/import/observed.js';
import { READERS } from '../../src/import/readers/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One input of each format holding one request. */
const ONE_REQUEST: Record<(typeof INPUT_FORMATS)[number], { text: string; value?: unknown }> = {
  openapi: { text: '', value: { openapi: '3.0.3', paths: { '/pets': { get: {}, parameters: [] } } } },
  postman: { text: '', value: { info: {}, item: [{ name: 'folder', item: [{ request: { method: 'GET' } }] }] } },
  har: { text: '', value: { log: { entries: [{ request: { url: 'http://x/api/pets' } }, { request: { url: 'http://x/app.js' } }] } } },
  curl: { text: '$ curl -s https://api.example.com/pets\n' },
  markdown: { text: '## List pets\n\nGET /pets\n\nSee [GET /pets](#list).\n' },
};

describe('input formats', () => {
  it.each(INPUT_FORMATS.map((f) => [f]))('%s has a reader, a request count and a name', (format) => {
    expect(READERS[format]).toBeTypeOf('function');
    expect(FORMAT_NAMES[format]).toMatch(/\w/);
    expect(scanRequests(format, ONE_REQUEST[format].text, ONE_REQUEST[format].value)).toBe(1);
  });

  it('an input of no known format is E_IMPORT_FORMAT naming every format', async () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'nothing here looks like an API\n');
    const err = (await importApi([file]).catch((e: unknown) => e)) as { code: string; message: string };
    expect(err.code).toBe('E_IMPORT_FORMAT');
    expect(err.message).toContain(`(${INPUT_FORMATS.map((f) => FORMAT_NAMES[f]).join(', ')})`);
    for (const name of Object.values(FORMAT_NAMES)) expect(err.message).toContain(name);
  });
});
