// How a project file and a position in it are shown to a person: the one rule for every
// command, report and message. Relative to the working directory, with `/` on every platform
// (golden files and GitHub annotations need one form); the working directory itself is `.`;
// a file on another drive keeps its absolute path.
import path from 'node:path';
import type { Loc } from './types.js';

export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  if (!rel) return '.';
  return path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
}

/** `file:line:col` (`file:line` without the column). */
export function displayLoc(loc: Pick<Loc, 'file' | 'line' | 'col'>, cwd: string, col = true): string {
  return `${displayPath(loc.file, cwd)}:${loc.line}${col ? `:${loc.col}` : ''}`;
}
