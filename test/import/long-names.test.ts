// A valid description whose path segments and operationIds are longer than a file name may
// be: the names made from them are a readable prefix and a hash of the whole, so the import
// writes its files, the project lints, and a second import names everything as the first.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { MAX_NAME, snake } from '../../src/project/index.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { tempDir } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const SEGMENT = 'a'.repeat(300);
const WORDS = 'Very_Long_Resource_Name_'.repeat(13);
const DOC = {
  openapi: '3.0.3',
  info: { title: 'long', version: '1' },
  servers: [{ url: 'http://127.0.0.1:1' }],
  paths: {
    [`/${SEGMENT}`]: { get: { responses: { '200': { description: 'ok' } } }, post: { responses: { '201': { description: 'ok' } } } },
    [`/${WORDS}/{${'item_identifier_'.repeat(20)}}`]: {
      get: {
        parameters: [{ name: 'item_identifier_'.repeat(20), in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()))
    out[path.relative(dir, path.join(f.parentPath, f.name))] = await readFile(path.join(f.parentPath, f.name), 'utf8');
  return out;
}

describe('flow import: long names', () => {
  it('a 300-character path segment imports; every name is short and stable across imports', async () => {
    const dir = await tempDir();
    cleanups.push(dir.cleanup);
    await writeFile(path.join(dir.dir, 'api.json'), JSON.stringify(DOC));
    const first = capturingIO({ cwd: dir.dir });
    expect(await main(['import', 'api.json', '--out', 'one'], first), first.err).toBe(0);
    expect(first.err).not.toContain('E_WRITE_NAME');
    const second = capturingIO({ cwd: dir.dir });
    expect(await main(['import', 'api.json', '--out', 'two'], second), second.err).toBe(0);
    const one = await files(path.join(dir.dir, 'one'));
    expect(one).toEqual(await files(path.join(dir.dir, 'two')));
    const resources = Object.keys(one).filter((f) => f.startsWith('resources/'));
    expect(resources).toHaveLength(2);
    for (const f of resources) expect(path.basename(f, '.yaml').length).toBeLessThanOrEqual(MAX_NAME);
    // a readable prefix, then the hash
    expect(resources).toContain(`resources/${snake(SEGMENT)}.yaml`);
    expect(snake(SEGMENT)).toMatch(/^a{40,}_[0-9a-f]{8}$/);
    expect(snake(WORDS)).toMatch(/^very_long_resource_name_very_long_[a-z_]*_[0-9a-f]{8}$/);
    // the project lints clean
    const lint = capturingIO({ cwd: path.join(dir.dir, 'one') });
    expect(await main(['lint'], lint), lint.out + lint.err).toBe(0);
  });

  it('names within the bound are left as they are', () => {
    expect(snake('findByStatus')).toBe('find_by_status');
    expect(snake('x'.repeat(MAX_NAME))).toBe('x'.repeat(MAX_NAME));
    expect(snake('x'.repeat(MAX_NAME + 1))).not.toBe(snake('y'.repeat(MAX_NAME + 1)));
  });
});
