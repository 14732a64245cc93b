// Reading one project file without ever crashing or hanging: where its links lead, what kind
// of file it is, size and binary checks, all before parsing (the first two before opening it),
// and every fs failure (missing, a directory, a symlink loop, no permission) coded.
import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { diag } from './diagnostics.js';
import { fileKind } from '../limits/index.js';
import { isInside } from './project-path.js';
import type { Diagnostic } from './types.js';

/** A project file larger than this is refused (a real one is a few KB). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: false });

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

/**
 * Read one project file. `projectDir` is the project directory with its own links resolved
 * (realProjectDirSync): the file must lie inside it once every link on its path is resolved, so
 * a `resources/x.yaml` (or a `resources/` folder) linked to elsewhere is refused unread.
 */
// Synchronous on purpose: project files are small and capped, and a thousand reads through
// the libuv thread pool cost more in round trips than the reads themselves.
export function readProjectFile(file: string, projectDir?: string): ReadResult {
  let fd: number | undefined;
  try {
    // the native call: one realpath(3), where the JS one lstats every folder on the path
    const real = realpathSync.native(file);
    if (projectDir !== undefined && !isInside(projectDir, real)) {
      return fail(
        'E_FILE_OUTSIDE_PROJECT',
        `file is a symbolic link (or lies in a linked folder) that leads to ${real}, outside the project directory: not read`,
        file,
      );
    }
    // Checked before open: opening a FIFO blocks until a writer comes, i.e. for ever.
    const notRegular = kindProblem(statSync(real), file);
    if (notRegular) return notRegular;
    // O_NONBLOCK: should the file be swapped for a FIFO between the stat and here, open still returns.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    const swapped = kindProblem(stat, file);
    if (swapped) return swapped;
    // A folder on the path swapped for a link between the check above and the open would have
    // opened a file outside: where the opened file lies is checked again.
    if (projectDir !== undefined && !openedInside(fd, stat, file, projectDir)) {
      return fail('E_FILE_OUTSIDE_PROJECT', 'file changed while it was read (a folder on its path was swapped for a link?): not read', file);
    }
    if (stat.size > MAX_FILE_BYTES) {
      return fail('E_FILE_TOO_LARGE', `file is ${stat.size} bytes; the limit for a project file is ${MAX_FILE_BYTES} bytes`, file);
    }
    const buf = readFileSync(fd);
    if (buf.includes(0)) return fail('E_FILE_BINARY', 'file contains NUL bytes: it is binary, not YAML', file);
    const text = UTF8.decode(buf);
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const why = FS_CODES[code] ?? `cannot be read (${code || (err as Error).message})`;
    return fail(code === 'ENOENT' ? 'E_FILE_NOT_FOUND' : 'E_FILE_UNREADABLE', `file ${why}`, file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether the open file lies inside `dir`. On Linux the kernel says where (/proc/self/fd: no
 * path lookup that a swap could race with); elsewhere the path is resolved again and must
 * lead to the very file that was opened.
 */
function openedInside(fd: number, opened: Stats, file: string, dir: string): boolean {
  let where: string;
  try {
    where = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    where = realpathSync(file);
    const now = statSync(where);
    if (now.dev !== opened.dev || now.ino !== opened.ino) return false;
  }
  return isInside(dir, where);
}

function kindProblem(stat: Stats, file: string): ReadResult | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return fail('E_FILE_UNREADABLE', `${file} is a directory, not a file`, file);
  return fail('E_FILE_UNREADABLE', `file is ${fileKind(stat)}, not a regular file: refused unopened`, file);
}

function fail(code: string, message: string, file: string): ReadResult {
  return { ok: false, diagnostic: diag(code, message, file) };
}
