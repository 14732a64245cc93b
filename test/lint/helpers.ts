// Lint a throwaway project and read the result as `file:line:col CODE` strings.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint, type LintOptions, type LintResult } from '../../src/lint/index.js';
import { loadProject, type Diagnostic } from '../../src/project/index.js';
import { writeProject } from '../helpers/project.js';

/** The root every case shares, unless the case gives its own flow.yaml. */
export const ROOT = ['version: 1', 'imports:', '  - environments/*.yaml', '  - actors/*.yaml', '  - resources/*.yaml', ''].join('\n');

export async function lintFiles(files: Record<string, string>, options: LintOptions = {}): Promise<{ dir: string; result: LintResult }> {
  const dir = await writeProject({ 'flow.yaml': ROOT, ...files });
  return { dir, result: lint(await loadProject(dir), options) };
}

/** `resources/r.yaml:4:13 W_UNKNOWN_METHOD`, relative to the project. */
function where(dir: string, d: Diagnostic): string {
  return `${path.relative(dir, d.file).split(path.sep).join('/')}:${d.line}:${d.col} ${d.code}`;
}

export function found(dir: string, result: LintResult, code?: string): string[] {
  return result.diagnostics.filter((d) => !code || d.code === code).map((d) => where(dir, d));
}

/** YAML text from lines. */
export const y = (...lines: string[]) => `${lines.join('\n')}\n`;

/** A resource file with one operation `create` whose body lines are given (indented 4). */
export const op = (...body: string[]) => ({ 'resources/r.yaml': y('operations:', '  create:', ...body.map((l) => `    ${l}`)) });

interface Case {
  name: string;
  files: Record<string, string>;
  /** every position of this code, `file:line:col` */
  expect: string[];
  /** the message of the first finding must match */
  message?: RegExp;
}

/** Projects that break a code's rule (with the exact positions reported) and projects that keep it. */
export interface CodeTable {
  code: string;
  breaks: Case[];
  keeps: Array<Omit<Case, 'expect'>>;
}

/** One describe per table; each case is linted with every rule, so it also proves no other rule reports it. */
export function runTables(tables: CodeTable[]): void {
  describe.each(tables)('$code', ({ code, breaks, keeps }) => {
    it.each(breaks)('reports: $name', async ({ files, expect: positions, message }) => {
      const { dir, result } = await lintFiles(files);
      expect(found(dir, result, code).map((s) => s.replace(` ${code}`, ''))).toEqual(positions);
      const first = result.diagnostics.find((d) => d.code === code)!;
      expect(first.severity).toBe(code.startsWith('E_') ? 'error' : 'warning');
      if (message) expect(first.message).toMatch(message);
    });

    it.each(keeps)('keeps: $name', async ({ files }) => {
      const { dir, result } = await lintFiles(files);
      expect(found(dir, result, code)).toEqual([]);
    });
  });
}
