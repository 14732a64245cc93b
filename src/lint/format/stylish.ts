// `path:line:col  severity  CODE  message`, one line each, then a summary line.
import type { Diagnostic } from '../../project/index.js';
import { relativeFile } from './relative.js';
import type { FormatOptions } from './index.js';

export function stylish(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  const lines = diagnostics.map((d) => stylishLine(d, options.cwd));
  lines.push(summary(diagnostics));
  return `${lines.join('\n')}\n`;
}

/** One diagnostic as `path:line:col  severity  CODE  message`. */
export function stylishLine(d: Diagnostic, cwd: string): string {
  return `${relativeFile(d.file, cwd)}:${d.line}:${d.col}  ${d.severity}  ${d.code}  ${d.message}`;
}

export function summary(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '✔ no problems';
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `✖ ${plural(diagnostics.length, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
