// `path:line:col  severity  CODE  message`, one line each, then a summary line.
import { type Diagnostic, displayLoc, displayPath } from '../../project/index.js';
import type { FollowOn } from '../follow-ons.js';
import type { FormatOptions } from './index.js';

export function stylish(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  const lines = diagnostics.map((d) => stylishLine(d, options.cwd));
  for (const f of options.followOns ?? []) lines.push(followOnLine(f, options.cwd));
  lines.push(summary(diagnostics));
  return `${lines.join('\n')}\n`;
}

/** One diagnostic as `path:line:col  severity  CODE  message`. */
export function stylishLine(d: Diagnostic, cwd: string): string {
  return `${displayLoc(d, cwd)}  ${d.severity}  ${d.code}  ${d.message}`;
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

/** `3 more errors come from resources/things.yaml, which did not parse` */
export function followOnLine(f: FollowOn, cwd: string): string {
  const counts = [f.errors && plural(f.errors, 'error'), f.warnings && plural(f.warnings, 'warning')].filter(Boolean).join(' and ');
  const verb = f.errors + f.warnings === 1 ? 'comes' : 'come';
  return `${counts.replace(/^(\d+)/, '$1 more')} ${verb} from ${displayPath(f.file, cwd)}, which did not parse`;
}
