// A JSON array, one object per diagnostic, keys always in the same order, paths relative.
import { type Diagnostic, displayPath } from '../../project/index.js';
import type { FormatOptions } from './index.js';

export function json(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  const rows = diagnostics.map((d) => ({
    file: displayPath(d.file, options.cwd),
    line: d.line,
    col: d.col,
    severity: d.severity,
    code: d.code,
    message: d.message,
  }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}
