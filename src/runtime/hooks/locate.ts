// A hook as written (docs/format.md#operations): inline JavaScript, or a relative path `./<file>.js` that must
// stay inside the project directory (symbolic links followed before the check).
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { FlowError } from '../../errors.js';
import { isInside, realProjectDir } from '../../project/index.js';
import type { HookKind } from './types.js';

export type HookSource =
  | { kind: 'inline'; code: string }
  /** `version` changes when the file does, so a worker imports the new one (watch mode) */
  | { kind: 'file'; file: string; written: string; version: number };

/**
 * One token (no whitespace) ending in .js/.mjs/.cjs: a file, whatever characters its name has
 * (`a+b.js`, `é.js`). Inline code always has more to it than that.
 */
const FILE_HOOK = /^\S+\.[cm]?js$/;

export function isHookFile(hook: string): boolean {
  return FILE_HOOK.test(hook.trim());
}

export async function locateHook(kind: HookKind, hook: string, projectDir: string): Promise<HookSource> {
  const written = hook.trim();
  if (!isHookFile(written)) return { kind: 'inline', code: hook };
  const root = await realProjectDir(projectDir);
  const wanted = resolve(root, written);
  if (!isInside(root, wanted)) throw outside(kind, written);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    throw new FlowError('E_HOOK', `${kind} hook file ${written} not found in the project directory`, { details: { hook: written, kind } });
  }
  if (!isInside(root, real)) throw outside(kind, written);
  const st = await stat(real);
  if (!st.isFile()) throw new FlowError('E_HOOK', `${kind} hook ${written} is not a file`, { details: { hook: written, kind } });
  return { kind: 'file', file: real, written, version: st.mtimeMs };
}

function outside(kind: HookKind, written: string): FlowError {
  return new FlowError('E_FILE_OUTSIDE_PROJECT', `${kind} hook file ${written} is outside the project directory`, {
    details: { hook: written, kind },
  });
}
