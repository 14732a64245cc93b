// A second user for tests about ownership (files another user made or owns): created when
// missing, when this process is root (CI runs as root: .ci/run).
import { execFileSync } from 'node:child_process';

export const OTHER = 'reqflow-other';

/** The second user's name; undefined when this process may not make or use one. */
function otherUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    execFileSync('id', ['-u', OTHER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', OTHER]);
  }
  return OTHER;
}

/** Why a block that needs the second user cannot run; undefined when it can (under CI a missing one fails). */
export function noOtherUser(): string | undefined {
  return otherUser() || process.env.CI === 'true' ? undefined : 'needs root, to create a second user and run as it (runuser)';
}

/** Run a shell script as the second user. */
export const asOther = (script: string) => execFileSync('runuser', ['-u', OTHER, '--', 'sh', '-c', script]);
