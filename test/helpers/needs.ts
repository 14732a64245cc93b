// A block of tests that needs something a machine may lack (a Debian package, the shared
// corpus, a built dist/, a test-only server package). Absent: under CI=true one failing test
// that says what is missing and how to install it; elsewhere a skipped block whose name says
// why, and the same line on stderr, because Vitest's default reporter names no skipped block.
import { execFileSync } from 'node:child_process';
import { describe, test, type TestOptions } from 'vitest';

const inCI = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/**
 * `describe(name, body)` when `missing` is undefined. Otherwise `missing` is why the block
 * cannot run (what is absent, and how to install it), shown as `[<name> skipped] <missing>`.
 */
export function describeWhenAvailable(name: string, missing: string | undefined, body: () => void, options?: TestOptions): void {
  if (missing === undefined) {
    describe(name, options ?? {}, body);
    return;
  }
  if (inCI()) {
    describe(name, () => {
      test('can run (CI=true)', () => {
        throw new Error(`${name}: required under CI=true, but ${missing}`);
      });
    });
    return;
  }
  console.warn(`[${name} skipped] ${missing}`);
  describe.skip(`${name} (skipped: ${missing})`, () => {
    test('needs what is missing', () => {});
  });
}

/** Why a block that spawns bin/flow.js cannot run. */
export const NOT_BUILT = 'dist/ is not built; build it with: npm run build';

/** Why a block that runs a command under a pseudo-terminal (`script`, util-linux) cannot run; undefined when it can. */
export function noScript(): string | undefined {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'script (util-linux) is not installed; install it with: apt-get install -y bsdutils';
  }
}
