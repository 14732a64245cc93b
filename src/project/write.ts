// The one way reqflow writes into a project (calibrate --apply, run --record, lint --fix,
// import --into and --out): a temporary file beside the target, flushed to disk, then renamed
// over it. A kill at any moment leaves the old file or the new one, whole, never a mix. The
// target must be a regular file inside the project, reached through real folders: a link, a
// FIFO or a device is refused unopened, so an edit can neither leave the project nor hang.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { FlowError, WRITE_CODES } from '../errors.js';
import { fileKind } from '../limits/index.js';
import { MAX_FILE_BYTES } from './read.js';

/** The longest file or folder name most file systems take (bytes; Linux NAME_MAX). */
const NAME_MAX = 255;
/** The longest path Linux takes (bytes; PATH_MAX). */
const PATH_MAX = 4096;

type WriteCode = (typeof WRITE_CODES)[keyof typeof WRITE_CODES];

function writeError(code: WriteCode, message: string, file: string, cause?: unknown): FlowError {
  return new FlowError(code, message, { details: { file }, cause });
}

/**
 * The folders between `projectDir` and `file` (relative, `/`-free segments), after checking
 * that `file` lies inside the project and that every name fits the file system.
 */
function segmentsOf(projectDir: string, file: string): string[] {
  const rel = path.relative(projectDir, path.resolve(projectDir, file));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw writeError(WRITE_CODES.outside, `${file} lies outside the project ${projectDir}: not written`, file);
  }
  const segments = rel.split(path.sep);
  const long = segments.find((s) => Buffer.byteLength(s) > NAME_MAX);
  if (long !== undefined) {
    throw writeError(
      WRITE_CODES.name,
      `${rel}: the name "${long.slice(0, 40)}…" is ${Buffer.byteLength(long)} bytes; file systems take at most ${NAME_MAX}: not written`,
      file,
    );
  }
  if (Buffer.byteLength(path.join(projectDir, rel)) >= PATH_MAX) {
    throw writeError(WRITE_CODES.name, `${rel}: the path is longer than the ${PATH_MAX} bytes file systems take: not written`, file);
  }
  return segments;
}

/**
 * Check in advance that each path can be written under `projectDir`, names and place: every
 * folder on the way that exists is a real folder (not a link), and the file is missing or a
 * regular file. Nothing is written, so a later file's refusal never leaves the earlier ones.
 */
export function checkWritable(projectDir: string, files: Iterable<string>): void {
  for (const f of files) {
    const segments = segmentsOf(projectDir, f);
    const dir = parentOf(projectDir, segments, f, 'stop');
    const existing = dir === undefined ? undefined : lstatOrUndefined(path.join(dir, segments[segments.length - 1]), f);
    if (existing && !existing.isFile()) throw writeError(WRITE_CODES.notFile, `${f} is ${fileKind(existing)}, not a regular file: not written`, f);
  }
}

/**
 * The folder `file` goes in, every folder from the project down checked (not followed) to be
 * a real folder. A missing one is created (`create`), an error (`fail`), or ends the walk
 * (`stop`: undefined, nothing below it can be in the way).
 */
function parentOf(projectDir: string, segments: string[], file: string, missing: 'create' | 'fail'): string;
function parentOf(projectDir: string, segments: string[], file: string, missing: 'stop'): string | undefined;
function parentOf(projectDir: string, segments: string[], file: string, missing: 'create' | 'fail' | 'stop'): string | undefined {
  let dir = projectDir;
  for (const name of segments.slice(0, -1)) {
    dir = path.join(dir, name);
    let st = lstatOrUndefined(dir, file);
    if (!st && missing === 'stop') return undefined;
    if (!st && missing === 'create') {
      try {
        mkdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw failed(err, file);
      }
      st = lstatOrUndefined(dir, file);
    }
    if (!st) throw writeError(WRITE_CODES.failed, `${path.relative(projectDir, dir)} does not exist: ${file} not written`, file);
    if (st.isSymbolicLink()) {
      throw writeError(WRITE_CODES.outside, `${path.relative(projectDir, dir)} is a symbolic link: ${file} not written (links are not followed)`, file);
    }
    if (!st.isDirectory()) throw writeError(WRITE_CODES.notFile, `${path.relative(projectDir, dir)} is not a folder: ${file} not written`, file);
  }
  return dir;
}

function lstatOrUndefined(p: string, file: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw failed(err, file);
  }
}

function failed(err: unknown, file: string): FlowError {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  if (code === 'ENAMETOOLONG') return writeError(WRITE_CODES.name, `${file}: the name is too long for the file system: not written`, file, err);
  return writeError(WRITE_CODES.failed, `${file} cannot be written (${code})`, file, err);
}

/**
 * Read a project file that is about to be edited: a regular file inside the project, opened
 * without following a link and without blocking, at most MAX_FILE_BYTES.
 */
export function readForEdit(projectDir: string, file: string): string {
  const segments = segmentsOf(projectDir, file);
  const target = path.join(parentOf(projectDir, segments, file, 'fail'), segments[segments.length - 1]);
  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      throw writeError(WRITE_CODES.outside, `${file} is a symbolic link: not edited (links are not followed)`, file);
    throw failed(err, file);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw writeError(WRITE_CODES.notFile, `${file} is ${fileKind(st)}, not a regular file: not edited`, file);
    if (st.size > MAX_FILE_BYTES)
      throw writeError(WRITE_CODES.notFile, `${file} is ${st.size} bytes, over the ${MAX_FILE_BYTES} a project file may have: not edited`, file);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Write `text` to `file` inside `projectDir`, atomically: a temporary file in the same folder,
 * fsync, rename over the target, fsync of the folder. An existing target must be a regular
 * file (its mode and, where this process may set it, its owner are kept); missing folders are created. Throws E_WRITE_* and leaves the old
 * file as it was.
 */
export function writeProjectFile(projectDir: string, file: string, text: string): void {
  const segments = segmentsOf(projectDir, file);
  const dir = parentOf(projectDir, segments, file, 'create');
  const target = path.join(dir, segments[segments.length - 1]);
  const existing = lstatOrUndefined(target, file);
  if (existing && !existing.isFile()) throw writeError(WRITE_CODES.notFile, `${file} is ${fileKind(existing)}, not a regular file: not written`, file);
  // A short name: the target's own may already be as long as a name can be.
  const temp = path.join(dir, `.flow-${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, existing ? existing.mode & 0o7777 : 0o666);
    const buf = Buffer.from(text, 'utf8');
    for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
    if (existing) keepModeAndOwner(fd, existing);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    // The folder checked above must still be the one written in (not swapped for a link since).
    if (realpathSync(dir) !== path.join(realpathSync(projectDir), ...segments.slice(0, -1))) {
      throw writeError(WRITE_CODES.outside, `a folder on the path of ${file} changed while it was written (swapped for a link?): not written`, file);
    }
    renameSync(temp, target);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw err instanceof FlowError ? err : failed(err, file);
  }
  syncFolder(dir);
}

/**
 * The replaced file's mode exactly (open's mode passes through the umask: a 664 became 644),
 * and its owner and group: an edit by root (or by a member of the file's group) must not take
 * the file from its owner. Only root may give a file away; anyone else keeps their own, so a
 * refusal (EPERM) of the owner or group is not an error.
 */
function keepModeAndOwner(fd: number, existing: Stats): void {
  const st = fstatSync(fd);
  if (st.uid !== existing.uid || st.gid !== existing.gid) {
    try {
      fchownSync(fd, existing.uid, existing.gid);
    } catch {
      try {
        fchownSync(fd, -1, existing.gid);
      } catch {
        // not ours to give: the file stays the writer's, as any editor leaves it
      }
    }
  }
  // after chown, which clears set-uid/set-gid bits
  fchmodSync(fd, existing.mode & 0o7777);
}

/**
 * A file the user named on the command line (a report, an import plan), wherever it is: written
 * the same way, atomically, its missing folders created; refused (E_WRITE_*) when the name is a
 * link, a FIFO or a device, as an edit would be. Its folder counts as the "project" here.
 */
export function writeOutputFile(file: string, text: string): void {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw failed(err, file);
  }
  writeProjectFile(dir, target, text);
}

/** The rename itself reaches the disk only with its folder. */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // some file systems cannot sync a folder: the rename is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A new project folder, assembled beside `dir` and moved into place whole at the end: a
 * failure (a name too long, a full disk, a kill) leaves no half-written `dir`. `dir` must not
 * exist or be empty. `files`: relative `/`-separated paths and their text.
 */
export function writeNewProject(dir: string, files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const target = path.resolve(dir);
  checkWritable(
    target,
    files.map((f) => path.join(target, ...f.path.split('/'))),
  );
  const parent = path.dirname(target);
  mkdirSync(parent, { recursive: true });
  const aside = path.join(parent, `.flow-new-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(aside, { mode: 0o777 });
    for (const f of files) writeProjectFile(aside, path.join(aside, ...f.path.split('/')), f.text);
    // rename(2) replaces an empty folder and refuses one that is not empty (ENOTEMPTY).
    renameSync(aside, target);
  } catch (err) {
    rmSync(aside, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw writeError(WRITE_CODES.failed, `${target} is not empty: nothing written`, target, err);
    throw err instanceof FlowError ? err : failed(err, target);
  }
  syncFolder(parent);
  return files.map((f) => path.join(target, ...f.path.split('/')));
}
