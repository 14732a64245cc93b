// The library API (`import … from 'reqflow'`) is what a user needs, each name documented in
// README's "Library API": at most 40 names, so that an internal the CLI and the plugin share
// (a name helper, a lazy loader, a cache switch) does not become a promise to users.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'oxc-parser';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

const ROOT = path.resolve(__dirname, '..');
const INDEX = path.join(ROOT, 'src/index.ts');

/** Every name src/index.ts exports, types included (read from its syntax: a type leaves no trace at run time). */
function exportedNames(): string[] {
  const { module, errors } = parseSync(INDEX, readFileSync(INDEX, 'utf8'));
  expect(errors).toEqual([]);
  const names = module.staticExports.flatMap((e) => e.entries.map((entry) => entry.exportName.name ?? '*'));
  return names;
}

describe('the public API', () => {
  const names = exportedNames();

  it('exports at most 40 names, each by name (no `export *`)', () => {
    expect(names).not.toContain('*');
    expect(names.length).toBeLessThanOrEqual(40);
    expect(new Set(names).size).toBe(names.length);
  });

  it('every value it exports is there at run time', () => {
    const values = Object.keys(api).sort();
    expect(values.every((v) => names.includes(v))).toBe(true);
    for (const v of ['loadProject', 'lint', 'openProject', 'createRunner', 'importApi', 'FlowError', 'hasCode']) expect(values).toContain(v);
  });

  it("every name is documented in README's Library API section", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Library API'), readme.indexOf('\n## ', readme.indexOf('## Library API') + 1));
    const undocumented = names.filter((n) => !new RegExp(`\\b${n}\\b`).test(section));
    expect(undocumented).toEqual([]);
  });
});
