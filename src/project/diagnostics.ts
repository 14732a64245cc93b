// Small constructors for loader diagnostics, so every one carries file:line:col.
import type { Diagnostic, Severity } from './types.js';

export function diag(code: string, message: string, file: string, line = 1, col = 1, severity?: Severity): Diagnostic {
  return { code, severity: severity ?? (code.startsWith('W_') ? 'warning' : 'error'), message, file, line, col };
}
