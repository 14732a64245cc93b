// Tests that read the folder `shared/` beside the repository (the import corpus). A fresh
// clone has no such folder: those tests are skipped with a message naming it, and fail under
// CI=true, where a missing corpus must not pass unseen.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWhenAvailable } from './needs.js';

/** `../shared` beside the repository. */
export const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared');

/** The absolute path of `shared/<rel>`, or undefined when it is absent. */
export function sharedPath(rel: string): string | undefined {
  const p = path.join(SHARED, rel);
  return existsSync(p) ? p : undefined;
}

/**
 * A describe block that needs `shared/<rel>`. Absent: a skipped block whose name says what
 * is missing, or under CI one failing test that says so.
 */
export function describeShared(name: string, rel: string, body: (dir: string) => void): void {
  describeWhenAvailable(name, sharedMissing(rel), () => body(sharedPath(rel)!));
}

/** Why `shared/<rel>` cannot be read, or undefined. */
export function sharedMissing(rel: string): string | undefined {
  return sharedPath(rel) ? undefined : `${path.join(SHARED, rel)} is absent (the shared corpus beside the clone)`;
}
