// The API under test, started for a run (Playwright's `webServer`): run `command` in a shell,
// wait until `url` answers (or `port` accepts a connection), and stop its whole process tree
// afterwards. Used by the Vitest plugin and `flow run --server`. What the server printed is
// kept (the last lines) for the error when it exits or never becomes ready, and shown only
// through the run's redactor: the server inherits the FLOW_SECRET_* variables, and may log
// the tokens it issues.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { FlowError } from '../errors.js';
import { isCredentialName } from '../project/index.js';
import { createRedactor, CUT_MARK, type Redactor } from '../redact/index.js';
import { commandSecrets, shownCommand } from './command.js';
import { isReady, originOf, probeUrl, tryProbe, type Probe, type ProbeResult } from './ready.js';
import type { WaitState } from './waiting.js';
import { watchGroup, type Watchdog } from './watchdog.js';

export { waitingLine, type WaitState } from './waiting.js';

export interface ServerOptions {
  /** the shell command that starts the server */
  command: string;
  /** where it runs (default: the caller's directory: the Vitest root, or the current one for `flow run`) */
  cwd?: string;
  /** added to the process environment */
  env?: Record<string, string>;
  /** what must answer before the run starts; its origin becomes `baseUrl` */
  url?: string;
  /** instead of `url`: a port on 127.0.0.1 that must accept connections (`baseUrl` http://127.0.0.1:<port>) */
  port?: number;
  /** how long to wait for it, in ms (default 60000) */
  timeout?: number;
  /** use a server that already answers at `url` instead of starting one (default false: that is an error) */
  reuseExisting?: boolean;
  /**
   * `url` was not named by the user but defaulted from baseUrl (`flow run --server` without
   * --server-url), where most APIs answer 404: any HTTP answer means up
   */
  anyAnswer?: boolean;
}

export interface ManagedServer {
  /** what was waited for */
  readyAt: string;
  /** the origin the flows send to */
  baseUrl: string;
  /** true when a server that already answered is used (nothing was started, nothing is stopped) */
  reused: boolean;
  /** the last lines it printed, stdout and stderr together */
  output(): string[];
  /** stops the process tree; resolves once the process is gone */
  stop(): Promise<void>;
}

export interface ServerEvents {
  /** the server exited later, while the run still needed it (the message ends with its last output lines) */
  onExit?: (message: string) => void;
  /** each line it writes to stderr, as it comes (what Playwright shows by default) */
  onStderr?: (line: string) => void;
  /** after each try while it waits to be ready (for a progress line; see `waitingLine`) */
  onWait?: (state: WaitState) => void;
  /**
   * what every line shown goes through, at the time it is shown (default: nothing hidden). It
   * learns the credentials of the command and of `env` (the server may print them too).
   */
  redactor?: Redactor;
}

const DEFAULT_SERVER_TIMEOUT_MS = 60_000;
const OUTPUT_LINES = 30;
/** a longer output line is shown to this many characters */
const LINE_CHARS = 1_000;
/** and kept to this many, to be redacted when shown (redact, then cut) */
const HELD_CHARS = LINE_CHARS * 4;
const STOP_GRACE_MS = 5_000;
/** How long after the server's exit its output may still come (see `exited`). */
const DRAIN_MS = 2_000;
const EXIT_SIGNALS: NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Starts the server and waits until it is ready. E_SERVER_EXITED when it exits first,
 * E_SERVER_TIMEOUT when it never answers, E_SERVER_IN_USE when something already answers
 * and `reuseExisting` is off; each message ends with the last lines it printed.
 */
export async function startServer(options: ServerOptions, baseDir: string, events: ServerEvents = {}): Promise<ManagedServer> {
  const { onExit, onStderr, onWait } = events;
  const redactor = events.redactor ?? createRedactor();
  for (const secret of commandSecrets(options.command)) redactor.add(secret);
  for (const [name, value] of Object.entries(options.env ?? {})) if (isCredentialName(name) && value) redactor.add(value);
  // the command as messages name it, its credentials hidden (then cut)
  const server = () => `the server "${shownCommand(options.command, redactor)}"`;
  const withOutput = (message: string) => withLastLines(message, lines, redactor);
  const probe = probeUrl(options, redactor);
  const baseUrl = originOf(probe);
  const readyAt = probe.kind === 'http' ? probe.url : `port ${probe.port}`;
  const anyAnswer = options.anyAnswer === true;
  if (await isReady(probe, anyAnswer)) {
    if (options.reuseExisting) return { readyAt, baseUrl, reused: true, output: () => [], stop: async () => {} };
    // the server of a run killed a moment ago may still be stopping (its watchdog gives it the grace period)
    if (!(await goneWithin(probe, anyAnswer, STOP_GRACE_MS + 1000)))
      throw new FlowError(
        'E_SERVER_IN_USE',
        `${readyAt} already answers before ${server()} started; stop what runs there, or set reuseExisting: true to use it`,
      );
  }
  const lines: string[] = [];
  const child = spawn(options.command, {
    cwd: path.resolve(baseDir, options.cwd ?? '.'),
    env: { ...process.env, ...options.env },
    shell: true,
    // its own process group, so that stop() reaches every process it started
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // stops the group should this process be killed outright (SIGKILL: no handler below runs)
  const watchdog = process.platform !== 'win32' && child.pid !== undefined ? watchGroup(child.pid, STOP_GRACE_MS) : undefined;
  keepLines(child, lines, onStderr && ((line) => onStderr(shown(line, redactor))));
  let stopping = false;
  let ready = false;
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`could not start: ${err.message}`));
    // Settled on 'close', once stdout and stderr are drained too: on 'exit' the last lines may
    // still be in the pipes, and the error would not quote them. A process the server started
    // that keeps the pipes open delays it by DRAIN_MS at most (stopTree then ends the group).
    child.once('exit', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      child.once('close', () => resolve(how));
      setTimeout(() => resolve(how), DRAIN_MS).unref();
    });
  });
  // A run that ends any way (Ctrl+C, an uncaught error) must not leave the server behind.
  const killOnExit = () => killTree(child, 'SIGKILL');
  process.once('exit', killOnExit);
  // A signal's default action ends the process without 'exit', and the server, in its own
  // group, gets no Ctrl+C from the terminal: kill it, then let the signal do what it would have.
  const onSignal = (signal: NodeJS.Signals) => {
    killTree(child, 'SIGKILL');
    forgetSignals();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const forgetSignals = () => {
    for (const s of EXIT_SIGNALS) process.off(s, onSignal);
  };
  for (const s of EXIT_SIGNALS) process.on(s, onSignal);
  void exited.then((how) => {
    process.off('exit', killOnExit);
    forgetSignals();
    if (!stopping && ready) onExit?.(withOutput(`${server()} ${how} during the run`));
  });
  const timeoutMs = options.timeout ?? DEFAULT_SERVER_TIMEOUT_MS;
  const waited: WaitState = { tried: readyAt, got: 'nothing yet', ms: 0 };
  const tried = (result: ProbeResult, ms: number) => {
    waited.got = result.got;
    waited.ms = ms;
    onWait?.({ ...waited });
  };
  const outcome = await Promise.race([
    waitReady(probe, anyAnswer, timeoutMs, () => child.exitCode !== null || child.signalCode !== null, tried),
    exited.then((how) => ({ exited: how })),
  ]);
  if (outcome !== true) {
    stopping = true;
    // waitReady also gives up once the child has exited, which it sees before `exited` settles
    // (on 'close', its output drained): the exit is then the cause, quoted with all it printed
    const gone = typeof outcome === 'object' ? outcome.exited : child.exitCode !== null || child.signalCode !== null ? await exited : undefined;
    await stopTree(child, exited, watchdog);
    if (gone !== undefined) throw new FlowError('E_SERVER_EXITED', withOutput(`${server()} ${gone} before ${readyAt} answered`));
    throw new FlowError('E_SERVER_TIMEOUT', withOutput(`${server()} ${notReady(readyAt, timeoutMs, waited.got)}`));
  }
  ready = true;
  return {
    readyAt,
    baseUrl,
    reused: false,
    output: () => lines.map((line) => shown(line, redactor)),
    stop: async () => {
      stopping = true;
      await stopTree(child, exited, watchdog);
    },
  };
}

/** Resolves true once ready, false on timeout or when `gone()` says the process ended; `tried` after each try. */
async function waitReady(
  probe: Probe,
  anyAnswer: boolean,
  timeoutMs: number,
  gone: () => boolean,
  tried: (result: ProbeResult, ms: number) => void,
): Promise<boolean> {
  const start = Date.now();
  const deadline = start + timeoutMs;
  for (let delay = 50; Date.now() < deadline && !gone(); delay = Math.min(delay * 2, 500)) {
    const result = await tryProbe(probe, anyAnswer);
    if (result.up) return true;
    tried(result, Date.now() - start);
    await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(0, deadline - Date.now()))));
  }
  return false;
}

/** Resolves true once the probe no longer answers, false when it still does after `limitMs`. */
async function goneWithin(probe: Probe, anyAnswer: boolean, limitMs: number): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    if (!(await isReady(probe, anyAnswer))) return true;
  }
  return false;
}

/** What E_SERVER_TIMEOUT says: a refusal is no answer; a 404 at a URL the user named is an answer that does not count. */
function notReady(readyAt: string, timeoutMs: number, got: string): string {
  if (got.startsWith('HTTP ')) return `was not ready at ${readyAt} within ${timeoutMs} ms: the last try got ${got} (ready means 2xx, 3xx or 400-403)`;
  return `did not answer at ${readyAt} within ${timeoutMs} ms: the last try got ${got}`;
}

function keepLines(child: ChildProcess, lines: string[], onStderr?: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    const tell = stream === child.stderr ? onStderr : undefined;
    const add = (whole: string) => {
      const line = whole.length > HELD_CHARS ? whole.slice(0, HELD_CHARS) + CUT_MARK : whole;
      lines.push(line);
      tell?.(line);
    };
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (partial + chunk).split(/\r?\n/);
      // a line that never ends (binary output, a spinner redrawn with \r) is kept to its start
      partial = (parts.pop() ?? '').slice(0, HELD_CHARS + 1);
      for (const line of parts) add(line);
      if (lines.length > OUTPUT_LINES) lines.splice(0, lines.length - OUTPUT_LINES);
    });
    stream?.on('end', () => partial && add(partial));
  }
}

function withLastLines(message: string, lines: string[], redactor: Redactor): string {
  if (!lines.length) return `${message} (it printed nothing)`;
  return `${message}; its last output:\n${lines.map((l) => `  | ${shown(l, redactor)}`).join('\n')}`;
}

/** A kept line as shown: redacted, then cut to LINE_CHARS (never inside a `***`). */
function shown(line: string, redactor: Redactor): string {
  const { text, more } = redactor.excerpt(line, LINE_CHARS);
  return more ? `${text}${CUT_MARK}` : text;
}

/** SIGTERM to the process group, SIGKILL after a grace period; resolves when the process has exited. */
async function stopTree(child: ChildProcess, exited: Promise<unknown>, watchdog?: Watchdog): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    killTree(child, 'SIGTERM');
    const timer = setTimeout(() => killTree(child, 'SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  // what the shell started may outlive it: the group goes too, and stop() resolves once it is
  // gone (a grandchild still tearing down keeps its port open for a moment)
  killTree(child, 'SIGKILL');
  await groupGone(child, 1000); // bounded: an unreaped zombie (a container whose init does not reap) still counts
  watchdog?.dismiss();
}

/** Resolves once no process of the child's group is left, or after `limitMs`. */
async function groupGone(child: ChildProcess, limitMs: number): Promise<void> {
  if (child.pid === undefined || process.platform === 'win32') return;
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return; // ESRCH: the group is empty
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
export { originOf, probeUrl } from './ready.js';
