// `flow init`'s writes: every file or none. A file that exists is never replaced (E_INIT_EXISTS,
// checked for all before the first write), and each file appears whole or not at all: written
// beside its place, then hard-linked there, which fails instead of replacing a file that
// appeared in between.
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FlowError } from '../../errors.js';
import type { InitFile } from './files.js';

/** The paths of `files` that already exist in `dir`. */
export function existing(dir: string, files: readonly InitFile[]): string[] {
  return files.filter((f) => existsSync(path.join(dir, f.path))).map((f) => f.path);
}

export async function writeInitFiles(dir: string, files: readonly InitFile[]): Promise<void> {
  const taken = existing(dir, files);
  if (taken.length) {
    throw new FlowError('E_INIT_EXISTS', `${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dir}; nothing was written`);
  }
  for (const f of files) {
    const target = path.join(dir, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, f.text, { flag: 'wx' });
    try {
      await link(temp, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new FlowError('E_INIT_EXISTS', `${f.path} appeared in ${dir} while writing; it was kept`);
      throw err;
    } finally {
      await unlink(temp).catch(() => {});
    }
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
