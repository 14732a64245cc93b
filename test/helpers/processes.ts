// The processes a test's server started, found by a marker in their environment (Linux /proc):
// to check that none is left, and to end them when a test fails before they are stopped.
import { readdirSync, readFileSync } from 'node:fs';

/** Live processes (zombies excepted) whose environment holds MARK=<mark>. */
export function markedProcesses(mark: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (/\) Z /.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`MARK=${mark}`)) pids.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** SIGKILL to every marked process (cleanup after a failed test). */
export function killMarked(mark: string): void {
  for (const pid of markedProcesses(mark)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
