// `flow init`'s writes, through the project's one way of writing (src/project/write.ts): every
// file or none. A file that exists is never replaced (E_INIT_EXISTS), and every target is
// checked before the first write (a link in the way refuses them all). A new or empty directory
// is assembled aside and moved into place whole; in one that holds other files (a package's
// root), each file is written atomically.
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FlowError } from '../../errors.js';
import { checkWritable, readProjectFile, writeNewProject, writeProjectFile } from '../../project/index.js';
import type { InitFile } from './files.js';

/** The paths of `files` that already exist in `dir` (a link, even to nothing, is something there). */
function existing(dir: string, files: readonly InitFile[]): string[] {
  return files.filter((f) => lstatSync(path.join(dir, ...f.path.split('/')), { throwIfNoEntry: false }) !== undefined).map((f) => f.path);
}

/** Throws E_INIT_EXISTS when a file is there already, E_WRITE_* when one cannot be written; then nothing is written. */
export function writeInitFiles(dir: string, files: readonly InitFile[]): void {
  const taken = existing(dir, files);
  if (taken.length) {
    throw new FlowError('E_INIT_EXISTS', `${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dir}; nothing was written`);
  }
  if (isEmptyOrMissing(dir)) {
    writeNewProject(dir, files);
    return;
  }
  const targets = files.map((f) => path.join(dir, ...f.path.split('/')));
  checkWritable(dir, targets);
  files.forEach((f, i) => writeProjectFile(dir, targets[i], f.text));
}

function isEmptyOrMissing(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return !existsSync(dir);
  }
}

/**
 * The Vitest config to write for a project in `dir`: none when Vitest is not installed for the
 * package `dir` belongs to; `vitest.config.mts` in a CommonJS package (a `.ts` config there
 * makes Vite warn that it loads an ES module as CommonJS), else `vitest.config.ts`. The
 * package.json files above `dir` are anyone's (a shared parent folder): each is read bounded,
 * never by Node's resolver, which would wait for ever on a FIFO.
 */
export function vitestConfigName(dir: string): string | undefined {
  if (!upFrom(dir).some((d) => readProjectFile(path.join(d, 'node_modules', 'vitest', 'package.json')).ok)) return undefined;
  return packageType(dir) === 'module' ? 'vitest.config.ts' : 'vitest.config.mts';
}

/** The `type` of the nearest package.json at or above `dir` ("commonjs" when it says none, or cannot be read). */
function packageType(dir: string): string {
  const file = upFrom(dir)
    .map((d) => path.join(d, 'package.json'))
    .find((f) => existsSync(f));
  const read = file === undefined ? undefined : readProjectFile(file);
  if (!read?.ok) return 'commonjs';
  try {
    return (JSON.parse(read.text) as { type?: unknown }).type === 'module' ? 'module' : 'commonjs';
  } catch {
    return 'commonjs';
  }
}

/** `dir` and every folder above it. */
function upFrom(dir: string): string[] {
  const out = [path.resolve(dir)];
  while (path.dirname(out[out.length - 1]) !== out[out.length - 1]) out.push(path.dirname(out[out.length - 1]));
  return out;
}
