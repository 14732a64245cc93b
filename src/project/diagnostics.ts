// Small constructors for loader diagnostics, so every one carries file:line:col.
import type { Diagnostic, Loc, Severity } from './types.js';

/** A code's severity unless said otherwise: `W_…` is a warning, anything else an error. */
export function severityOf(code: string): Severity {
  return code.startsWith('W_') ? 'warning' : 'error';
}

export function diag(code: string, message: string, file: string, line = 1, col = 1, severity?: Severity): Diagnostic {
  return { code, severity: severity ?? severityOf(code), message, file, line, col };
}

export function diagAt(code: string, message: string, loc: Loc): Diagnostic {
  return diag(code, message, loc.file, loc.line, loc.col);
}
