// `flow import` through the real CLI entry (main), with an in-memory IO.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO, type CapturingIO } from '../helpers/capturing-io.js';
import { FIXTURES, tempDir } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function io(cwd = FIXTURES, isTTY = false): CapturingIO {
  return capturingIO({ cwd, isTTY });
}

describe('flow import', () => {
  it('usage errors exit 2', async () => {
    const a = io();
    expect(await main(['import', '--out', 'x'], a)).toBe(2);
    expect(a.err).toContain('give at least one input file');
    expect(await main(['import', 'docs.md'], io())).toBe(2);
    expect(await main(['import', 'docs.md', '--from', 'wsdl', '--out', 'x'], io())).toBe(2);
    const missing = io();
    expect(await main(['import', 'nope.yaml', '--out', 'x'], missing)).toBe(2);
    expect(missing.err).toContain('E_IMPORT_INPUT');
    const help = io();
    expect(await main(['import', '--help'], help)).toBe(0);
    expect(help.out).toContain('--into <dir>');
  });
  it('imports, writes the plan and the files, and reports the checks (exit 0)', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const a = io();
    const code = await main(['import', 'shop.postman_collection.json', '--out', path.join(dir, 'p'), '--plan', path.join(dir, 'PLAN.md')], a);
    expect(a.err).toMatch(
      /5 of 5 operations, 3 resources, 1 actors, 1 open questions, \d+ dependencies \(1 depends_on\); self-check and grounding passed; lint 0 errors/,
    );
    expect(code).toBe(0);
    expect(a.out).toBe('');
    expect(await readFile(path.join(dir, 'PLAN.md'), 'utf8')).toMatch(/^# Import plan: Shop/);
    expect(await readFile(path.join(dir, 'p', 'actors', 'jwt.yaml'), 'utf8')).toContain('strategy: simple');
  });
  it('a --plan that cannot be written is a coded error (exit 1), not a crash; the project is written', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeFile(path.join(dir, 'a-file'), '');
    const a = io();
    const code = await main(['import', 'shop.postman_collection.json', '--out', path.join(dir, 'p'), '--plan', path.join(dir, 'a-file', 'PLAN.md')], a);
    expect(code).toBe(1);
    expect(a.err).toMatch(/^flow import: E_WRITE_FAILED .*a-file\/PLAN\.md cannot be written \((?:EEXIST|ENOTDIR)\)$/m);
    expect(a.err).not.toContain('internal error');
    expect(await readFile(path.join(dir, 'p', 'actors', 'jwt.yaml'), 'utf8')).toContain('strategy: simple');
  });
  it('keeps the one OpenAPI input in the project as openapi.yaml, byte for byte; never over a description file there, nor for other inputs', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const a = io();
    expect(await main(['import', 'petstore-links.oas30.yaml', '--out', path.join(dir, 'p')], a)).toBe(0);
    expect(a.err).toContain('flow import: petstore-links.oas30.yaml is kept in the project as openapi.yaml: calibrate and explore read it');
    const original = await readFile(path.join(FIXTURES, 'petstore-links.oas30.yaml'), 'utf8');
    expect(await readFile(path.join(dir, 'p', 'openapi.yaml'), 'utf8')).toBe(original);
    // into a project whose description file differs: that one stays
    await writeFile(path.join(dir, 'p', 'openapi.yaml'), "openapi: 3.0.3\n# the user's own\n");
    const b = io();
    await main(['import', 'petstore-links.oas30.yaml', '--into', path.join(dir, 'p')], b);
    expect(b.err).toContain("kept: openapi.yaml (the project's own description file");
    expect(await readFile(path.join(dir, 'p', 'openapi.yaml'), 'utf8')).toBe("openapi: 3.0.3\n# the user's own\n");
    // a Postman collection is no description to keep
    const c = io();
    expect(await main(['import', 'shop.postman_collection.json', '--out', path.join(dir, 'q')], c)).toBe(0);
    expect(c.err).not.toContain('is kept');
    await expect(readFile(path.join(dir, 'q', 'openapi.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
  it('--from overrides detection', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const a = io();
    expect(await main(['import', 'session.curl.md', '--from', 'markdown', '--out', dir], a)).toBe(0);
    // read as Markdown (detection says curl log); its curl commands are still read, not a silent zero
    expect(a.out).toMatch(/\(Markdown, curl commands, [1-9]\d* operations\)/);
  });
  it('--check finds what a hand-written (or LLM-written) project gets wrong (exit 1)', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await mkdir(path.join(dir, 'resources'), { recursive: true });
    await writeFile(path.join(dir, 'flow.yaml'), 'version: 1\nname: llm\nimports:\n  - resources/*.yaml\n');
    await writeFile(
      path.join(dir, 'resources/books.yaml'),
      'name: book\noperations:\n  list:\n    path: /api/books\n    depends_on: []\n  fetch:\n    path: /api/books/{{book.list.id}}\n',
    );
    const a = io(FIXTURES);
    expect(await main(['import', '--check', dir, 'docs.md'], a)).toBe(1);
    expect(a.err).toContain('E_CHECK_EMPTY_KEY');
    expect(a.err).toContain('E_CHECK_OPERATION_REF');
    expect(a.err).toContain('E_CHECK_PROVENANCE');
    expect(a.err).toMatch(/self-check and grounding FAILED/);
  });
});
