// FlowError codes are one union (src/errors.ts ERROR_CODES), and README.md documents that
// list: a code added in one place and not the other fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FlowError } from '../src/errors.js';
import { CODES as LINT_CODES } from '../src/lint/codes.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const IMPORT_DOC = readFileSync(new URL('../docs/import.md', import.meta.url), 'utf8');

/** The error codes (`E_…`; warnings are not errors) in the first column of the tables of a README section. */
function tableCodes(markdown: string, heading: string): Set<string> {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  expect(start, `no "## ${heading}" section`).toBeGreaterThan(-1);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const codes = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\| ([^|]+) \|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`(E_[A-Z0-9_]+)`/g)) codes.add(m[1]);
  }
  return codes;
}

const documented = tableCodes(README, 'Error codes');
const codes = Object.keys(ERROR_CODES);

describe('error codes', () => {
  it("README.md documents every code a FlowError may carry (the importer's in docs/import.md)", () => {
    const missing = codes.filter((c) => (c.startsWith('E_IMPORT_') ? !IMPORT_DOC.includes(`\`${c}\``) : !documented.has(c)));
    expect(missing).toEqual([]);
  });

  it("every code README.md documents is a FlowError code, a lint code, or one of the Vitest plugin's own", () => {
    const vitestOnly = new Set(['E_LINT', 'E_FAILED', 'E_SPLIT_STALE']);
    const unknown = [...documented].filter((c) => !Object.hasOwn(ERROR_CODES, c) && !Object.hasOwn(LINT_CODES, c) && !vitestOnly.has(c));
    expect(unknown).toEqual([]);
  });

  it('a FlowError keeps its code, as the union types it', () => {
    const err = new FlowError('E_TIMEOUT', 'no response');
    expect(err.code).toBe('E_TIMEOUT');
    // @ts-expect-error a code outside the list does not type-check
    expect(new FlowError('E_NOT_A_CODE', 'x').code).toBe('E_NOT_A_CODE');
  });
});
