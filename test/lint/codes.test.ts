// Every code that can reach `flow lint` output is in the catalogue (--help) and explained in
// docs/lint.md: the rules' codes, and every code the loader's source emits.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CODES, RULES } from '../../src/lint/index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const docs = readFileSync(path.join(REPO, 'docs/lint.md'), 'utf8');

function sourceCodes(dir: string): string[] {
  const out = new Set<string>();
  for (const entry of readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/['"]([EW]_[A-Z_]+)['"]/g)) out.add(m[1]);
  }
  return [...out].sort();
}

describe('lint codes', () => {
  it('every rule reports only catalogued codes', () => {
    expect(RULES.flatMap((r) => r.codes).filter((c) => !Object.hasOwn(CODES, c))).toEqual([]);
  });

  it('every code the loader and the lint rules emit is catalogued', () => {
    const emitted = [...sourceCodes('src/project'), ...sourceCodes('src/lint/rules')];
    expect(emitted.filter((c) => !Object.hasOwn(CODES, c))).toEqual([]);
  });

  it('docs/lint.md has a table row for every catalogued code, with its severity', () => {
    for (const [code, info] of Object.entries(CODES)) {
      expect(docs, code).toMatch(new RegExp(`^\\| \`${code}\` \\| ${info.severity} \\|`, 'm'));
    }
  });

  it('W_ codes are warnings and E_ codes errors', () => {
    for (const [code, info] of Object.entries(CODES)) expect(info.severity, code).toBe(code.startsWith('W_') ? 'warning' : 'error');
  });
});
