// A CliIO whose stdout and stderr are kept in `out` and `err`, for tests that call main() in-process.
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../src/cli/io.js';

export type CapturingIO = CliIO & { out: string; err: string };

export function capturingIO({ cwd, env = {}, isTTY = false }: { cwd: string; env?: NodeJS.ProcessEnv; isTTY?: boolean }): CapturingIO {
  const io = { out: '', err: '' } as CapturingIO;
  return Object.assign(io, {
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    stdin: new PassThrough(),
    cwd,
    env,
    isTTY,
  });
}
