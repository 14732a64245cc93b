// Tests that read the folder `shared/` beside the repository (the import corpus). A fresh
// clone has no such folder: those tests are skipped with a message naming it, and fail under
// CI=true, where a missing corpus must not pass unseen.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

/** `../shared` beside the repository. */
export const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared');

const inCI = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/** The absolute path of `shared/<rel>`, or undefined when it is absent. */
function sharedPath(rel: string): string | undefined {
  const p = path.join(SHARED, rel);
  return existsSync(p) ? p : undefined;
}

/**
 * A describe block that needs `shared/<rel>`. Absent: a skipped block whose name says what
 * is missing, or under CI one failing test that says so.
 */
export function describeShared(name: string, rel: string, body: (dir: string) => void): void {
  const found = sharedPath(rel);
  if (found) {
    describe(name, () => body(found));
    return;
  }
  const missing = `${path.join(SHARED, rel)} is absent (the shared corpus beside the clone)`;
  if (inCI()) {
    describe(name, () => {
      test(`needs ${rel}`, () => {
        throw new Error(`${missing}: it is required under CI=true`);
      });
    });
    return;
  }
  // Printed too: Vitest's default reporter does not name a skipped block.
  console.warn(`[${name} skipped] ${missing}`);
  describe.skip(`${name} (skipped: ${missing})`, () => {
    test(`needs ${rel}`, () => {});
  });
}
