// Hooks run isolated from the runner in worker threads (tinypool), one pool per runner,
// created on the first hook (most projects have none: no start-up cost for them).
// Every failure is a FlowError E_HOOK that fails the one operation, never the run.
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type Tinypool from 'tinypool';
import { FlowError, hasCode } from '../../errors.js';
import { SECRET_ENV_PREFIX } from '../secrets/index.js';
import { locateHook, type HookSource } from './locate.js';
import { HTTP_METHODS } from '../../project/index.js';
import type { HookInput, HookKind, HookOutput, HookRunner, HookRunnerOptions, WorkerAnswer, WorkerTask } from './types.js';

export const DEFAULT_HOOK_TIMEOUT_MS = 5000;

/** Resolved next to this module: src/ under Vitest, dist/ once built. */
const WORKER = new URL('./hook-worker.js', import.meta.url);

export function createHookRunner(options: HookRunnerOptions): HookRunner {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  let pool: Promise<Tinypool> | undefined;
  let closed = false;

  // tinypool itself is loaded with the first hook: most runs have none (start-up time)
  async function startPool(): Promise<Tinypool> {
    const { default: Pool } = await import('tinypool');
    const started = new Pool({
      filename: WORKER.href,
      minThreads: 1,
      maxThreads: Math.max(1, options.maxThreads ?? Math.min(4, availableParallelism())),
      // idle workers are unref'd by tinypool: an unclosed pool does not hold the process
      idleTimeout: 30_000,
      // a hook that hoards memory ends its worker (ERR_WORKER_OUT_OF_MEMORY), not the runner
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      // a clean Node: the parent's flags (`--input-type`, `--import tsx`, vitest's) would break
      // or slow worker start-up, and hooks are plain JavaScript
      execArgv: [],
      env: hookEnv(process.env),
    });
    // a worker that dies between tasks is replaced by tinypool; nothing to report to anyone
    started.on('error', () => {});
    return started;
  }

  async function run(kind: HookKind, hook: string, input: HookInput): Promise<HookOutput> {
    const closedError = () => new FlowError('E_HOOK', `${kind} hook cannot run: the hook runner is closed`, { operation: input.operation });
    if (closed) throw closedError();
    const source = await locateHook(kind, hook, options.projectDir);
    if (closed) throw closedError(); // closed while the file was looked up: start no new pool
    const label = `${kind} hook ${source.kind === 'inline' ? '(inline)' : source.written}`;
    let answer: WorkerAnswer;
    // The time limit counts from when a worker takes the call (it says so on `started`), not
    // from submission: with more hooks at once than threads, waiting for a thread (or for one
    // to start) is not the hook's time.
    const abort = new AbortController();
    const started = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    started.port1.once('message', () => (timer = setTimeout(() => abort.abort(), timeoutMs)));
    try {
      // the worker checks a changed ctx.request.method against the project's own list
      const task: WorkerTask = { kind, source, input, projectDir: options.projectDir, methods: HTTP_METHODS, started: started.port2 };
      answer = (await (await (pool ??= startPool())).run(task, { signal: abort.signal, transferList: [started.port2] })) as WorkerAnswer;
    } catch (err) {
      throw hookError(label, source, input, closed ? 'was stopped: the hook runner was closed' : workerFailure(err, timeoutMs));
    } finally {
      clearTimeout(timer);
      started.port1.close();
    }
    if (!answer.ok) {
      const at = answer.line === undefined ? '' : ` at line ${answer.line}`;
      throw hookError(label, source, input, `failed${at}: ${answer.message}`, answer.logs, answer.line);
    }
    const { ok: _ok, ...out } = answer; // the worker sets only the keys it has a value for
    return out;
  }

  async function close(): Promise<void> {
    closed = true;
    const p = pool;
    pool = undefined;
    if (p) await (await p).destroy();
  }

  return { run, close };
}

/**
 * The environment a hook sees: the runner's, without FLOW_SECRET_*. A hook gets secrets only
 * as far as they are in the request it is handed.
 */
function hookEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith(SECRET_ENV_PREFIX)) out[k] = v;
  return out;
}

/** What went wrong outside the hook's own code: the time limit, a crashed worker, uncloneable data. */
function workerFailure(err: unknown, timeoutMs: number): string {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return `did not finish within ${timeoutMs} ms`;
  if (hasCode(err) && err.code === 'ERR_WORKER_OUT_OF_MEMORY') return 'ran out of memory';
  if (name === 'DataCloneError') return `failed: its input or result cannot be passed between threads (${firstLine(err)})`;
  return `failed: ${firstLine(err)}`;
}

function hookError(label: string, source: HookSource, input: HookInput, what: string, logs?: string[], line?: number): FlowError {
  return new FlowError('E_HOOK', `${label} ${what}`, {
    operation: input.operation,
    details: { hook: source.kind === 'inline' ? 'inline' : source.written, ...(line === undefined ? {} : { line }), ...(logs?.length ? { logs } : {}) },
  });
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}
