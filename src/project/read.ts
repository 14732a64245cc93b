// Reading one project file without ever crashing or hanging: size and binary checks before
// parsing, and every fs failure (missing, a directory, a symlink loop, no permission) coded.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { diag } from './diagnostics.js';
import type { Diagnostic } from './types.js';

/** A project file larger than this is refused (a real one is a few KB). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export type ReadResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

const FS_CODES: Record<string, string> = {
  ENOENT: 'does not exist',
  EISDIR: 'is a directory, not a file',
  ELOOP: 'is a symbolic link loop',
  EACCES: 'cannot be read (permission denied)',
  EPERM: 'cannot be read (operation not permitted)',
  ENAMETOOLONG: 'has a name that is too long',
  ENOTDIR: 'has a path through something that is not a directory',
};

// Synchronous on purpose: project files are small and capped, and a thousand reads through
// the libuv thread pool cost more in round trips than the reads themselves.
export function readProjectFile(file: string): ReadResult {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return fail('E_FILE_UNREADABLE', `${file} is a directory, not a file`, file);
    if (!stat.isFile()) return fail('E_FILE_UNREADABLE', `${file} is not a regular file`, file);
    if (stat.size > MAX_FILE_BYTES) {
      return fail('E_FILE_TOO_LARGE', `file is ${stat.size} bytes; the limit for a project file is ${MAX_FILE_BYTES} bytes`, file);
    }
    const buf = readFileSync(fd);
    if (buf.includes(0)) return fail('E_FILE_BINARY', 'file contains NUL bytes: it is binary, not YAML', file);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const why = FS_CODES[code] ?? `cannot be read (${code || (err as Error).message})`;
    return fail(code === 'ENOENT' ? 'E_FILE_NOT_FOUND' : 'E_FILE_UNREADABLE', `file ${why}`, file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function fail(code: string, message: string, file: string): ReadResult {
  return { ok: false, diagnostic: diag(code, message, file) };
}
