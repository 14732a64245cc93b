// A managed server must not outlive its run, even a run killed with SIGKILL (no 'exit' event,
// no signal handler runs; the server, in its own process group, would be left under PID 1 and
// the next run would find its port taken). A small watchdog process holds the read end of a
// pipe from the run: the kernel closes the pipe however the run ends. When it closes without
// the run's "done", the watchdog stops the server's process group: SIGTERM, then SIGKILL after
// the grace period. It runs in its own session, so a signal to the run's group (kill -9 -PGID,
// a terminal's Ctrl+C) does not reach it.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

// argv: [node, process group, grace ms]. Bounded: it ends once the group is gone or killed.
const WATCHDOG = `
const group = -Number(process.argv[1]);
const grace = Number(process.argv[2]);
const signal = (s) => { try { process.kill(group, s); return true; } catch { return false; } };
let said = '';
const stop = () => {
  if (!signal('SIGTERM')) process.exit(0);
  const until = Date.now() + grace;
  setInterval(() => {
    if (!signal(0)) process.exit(0);
    if (Date.now() >= until) { signal('SIGKILL'); process.exit(0); }
  }, 50);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { said += c; if (said.includes('done')) process.exit(0); });
process.stdin.on('end', stop);
process.stdin.on('error', stop);
`;

export interface Watchdog {
  /** the run stops the server itself: the watchdog ends without touching the group */
  dismiss(): void;
}

/** Watches over the process group `group` (the server's pid) while this process lives. */
export function watchGroup(group: number, graceMs: number): Watchdog {
  let dog: ChildProcess | undefined;
  try {
    dog = spawn(process.execPath, ['-e', WATCHDOG, String(group), String(graceMs)], {
      detached: true,
      // no inherited NODE_OPTIONS (a loader, a debugger) in a process that needs none
      env: {},
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    return { dismiss() {} }; // the run goes on; only the SIGKILL case is unguarded
  }
  dog.on('error', () => {}); // could not start: as above
  dog.stdin?.on('error', () => {}); // it ended first
  // neither the process nor the pipe keeps the run alive
  dog.unref();
  (dog.stdin as Socket | null)?.unref();
  return {
    dismiss() {
      dog?.stdin?.end('done\n');
      dog = undefined;
    },
  };
}
