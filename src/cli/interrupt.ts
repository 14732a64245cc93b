// Ctrl-C during a run: the run's clean-up (docs/format.md#ownership) goes first, then the
// process ends with 130. A second Ctrl-C ends it at once, leaving what is left.
import type { CleanupReport } from '../runner/index.js';
import { formatCleanup } from './format/cleanup.js';
import type { CliIO } from './io.js';

export function onInterrupt(io: CliIO, cleanUp: (() => Promise<CleanupReport>) | undefined, close: () => Promise<void>): { off(): void } {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(130);
    stopping = true;
    io.stderr(cleanUp ? '\ninterrupted: cleaning up what this run created (Ctrl-C again to leave it)\n' : '\ninterrupted (--keep: nothing is cleaned up)\n');
    void (async () => {
      try {
        const report = cleanUp ? await cleanUp() : undefined;
        if (report) io.stderr(formatCleanup(report, 'interrupted') || 'interrupted: nothing to clean up\n');
        await close();
        process.exit(130);
      } catch {
        process.exit(130);
      }
    })();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    off() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
