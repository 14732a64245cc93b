// Lint a throwaway project and read the result as `file:line:col CODE` strings.
import path from 'node:path';
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
export function where(dir: string, d: Diagnostic): string {
  return `${path.relative(dir, d.file).split(path.sep).join('/')}:${d.line}:${d.col} ${d.code}`;
}

export function found(dir: string, result: LintResult, code?: string): string[] {
  return result.diagnostics.filter((d) => !code || d.code === code).map((d) => where(dir, d));
}
