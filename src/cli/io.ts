// What a command may touch of the outside world. Tests pass their own; bin/flow.js passes the process's.
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: NodeJS.ReadableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** true when stderr is a terminal (progress lines, colours) */
  isTTY: boolean;
  /** true when stdout is a terminal (`flow secret get` shows a value only there) */
  stdoutIsTTY: boolean;
}

/** A command gets its own arguments (after the command name) and returns the exit code. */
export type Command = (argv: string[], io: CliIO) => Promise<number>;

/** Exit codes scripts can trust. */
export const EXIT = { ok: 0, failed: 1, usage: 2, internal: 70 } as const;

export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stdin: process.stdin,
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
  };
}

/** A line that fails to format must not end the run (it now runs outside the operation's error handling) nor take the others with it. */
function formatted(line: () => string): string {
  try {
    return line();
  } catch {
    return '(a line of output could not be formatted)\n';
  }
}

/**
 * Lines written during a run are joined and written in batches (every 16 KB or 50 ms, and at
 * the end): on a pipe each write is a blocking system call, and a thousand requests should
 * cost a few dozen writes, not a thousand. 50 ms is still live to a person watching.
 *
 * A line may be given as a function that formats it: it is called after the current turn of
 * the event loop, in order with the other lines. A sequential run sends its next request in
 * the turn that ended the previous one, so the formatting then overlaps the server's work on
 * that request instead of delaying it (on a machine that runs the server too, ~5% of a run).
 */
export function bufferedWriter(
  write: (text: string) => void,
  { bytes = 16_384, ms = 50 } = {},
): { write: (line: string | (() => string)) => void; flush: () => void } {
  let pending: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  // Lines not formatted yet, and every line written after one of them (to keep the order).
  let queued: Array<string | (() => string)> = [];
  let immediate: NodeJS.Immediate | undefined;
  const add = (text: string) => {
    if (!text) return;
    pending.push(text);
    size += text.length;
    if (size >= bytes) flush();
    else if (!timer) timer = setTimeout(flush, ms);
  };
  const format = () => {
    if (immediate) clearImmediate(immediate);
    immediate = undefined;
    const lines = queued;
    queued = [];
    for (const line of lines) add(typeof line === 'string' ? line : formatted(line));
  };
  const flush = () => {
    if (queued.length) format();
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    write(text);
  };
  return {
    write(line) {
      if (typeof line === 'string' && !queued.length) return add(line);
      queued.push(line);
      immediate ??= setImmediate(format);
    },
    flush,
  };
}
