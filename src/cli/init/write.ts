// `flow init`'s writes, through the project's one way of writing (src/project/write.ts): every
// file or none. A file that exists is never replaced (E_INIT_EXISTS, checked for all before the
// first write). A new or empty directory is assembled aside and moved into place whole; in one
// that holds other files (a package's root), each file is written atomically.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FlowError } from '../../errors.js';
import { checkWritable, writeNewProject, writeProjectFile } from '../../project/index.js';
import type { InitFile } from './files.js';

/** The paths of `files` that already exist in `dir`. */
function existing(dir: string, files: readonly InitFile[]): string[] {
  return files.filter((f) => existsSync(path.join(dir, ...f.path.split('/')))).map((f) => f.path);
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
 * makes Vite warn that it loads an ES module as CommonJS), else `vitest.config.ts`.
 */
export function vitestConfigName(dir: string): string | undefined {
  try {
    createRequire(path.join(dir, 'index.js')).resolve('vitest/package.json');
  } catch {
    return undefined;
  }
  return packageType(dir) === 'module' ? 'vitest.config.ts' : 'vitest.config.mts';
}

/** The `type` of the nearest package.json at or above `dir` ("commonjs" when it says none). */
function packageType(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const file = path.join(d, 'package.json');
    if (existsSync(file)) {
      try {
        const type = (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type;
        return type === 'module' ? 'module' : 'commonjs';
      } catch {
        return 'commonjs';
      }
    }
    if (path.dirname(d) === d) return 'commonjs';
  }
}
