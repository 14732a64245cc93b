// createRunner: one runner per project run, holding the state, sessions, HTTP pool and
// hook workers. Run any operation; its prerequisites run first.
import { buildGraph, deleteLevels, scheduleOrder } from '../graph/index.js';
import type { Project } from '../project/index.js';
import { createHookRunner, createSecretStore, type HookRunner } from '../runtime/index.js';
import { CookieJar, createHttpClient, type FlowResponse } from '../http/index.js';
import { createRedactor } from '../redact/index.js';
import type { CleanupReport, OperationResult, ProbeOverrides, ProbeResult, RunnerOptions, RunSummary } from './types.js';
import { cleanUp } from './cleanup.js';
import { newOutage } from './outage.js';
import type { RunContext } from './context.js';
import { chooseEnvironment, collectVars } from './environment.js';
import { loadForRender } from './ready.js';
import { Scheduler } from './schedule.js';
import { Sessions } from './sessions.js';
import { RunState } from './state.js';

export interface Runner {
  /** Run one operation: its prerequisites first (each once per runner), then it. Never throws for API failures. */
  run(operationId: string): Promise<OperationResult>;
  /**
   * Several, in schedule order; each asked-for operation once. `order`: their schedule order
   * (graph's scheduleOrder of the known ones), when the caller has it already.
   */
  runMany(operationIds: string[], order?: readonly string[]): Promise<RunSummary>;
  /** The latest result of an operation that ran (as itself or as a prerequisite). */
  result(operationId: string): OperationResult | undefined;
  /**
   * The latest full answer to an operation this runner sent, whatever its status: kept only by
   * a runner or fork made with `keepAnswers` (a calibration reads fields in it; it is never shown).
   */
  answer(operationId: string): FlowResponse | undefined;
  /** Extracted values: a resource's newest (or n-th, from 1) instance, or an actor's session. */
  values(resourceOrActor: string, index?: number): Record<string, unknown> | undefined;
  /**
   * A runner over the same project that shares this one's HTTP client (one undici pool), hook
   * workers, secret store, redactor, cookie jars and logged-in sessions (each actor logs in
   * once per run; refresh on expiry as in a run), with fresh instance state and a fresh memo
   * of what ran. close() of a fork releases nothing shared.
   */
  fork(options?: ForkOptions): Runner;
  /**
   * Send one operation once: its prerequisites (each once per runner, as run does) first, then
   * the operation with the overrides. Any status is an answer; no expect_status, no extract
   * (unless record), no asserts, no retry, a timeout. Never throws for API failures.
   */
  probe(operationId: string, overrides?: ProbeOverrides): Promise<ProbeResult>;
  /**
   * Leave the server as the run found it (docs/format.md#ownership): write back each switch the
   * run flipped, then delete each instance its creates made that no DELETE removed, newest
   * first, with the project's own delete operation. A fork cleans up its own. Never throws for
   * API failures: what could not be undone is in the report.
   */
  cleanUp(): Promise<CleanupReport>;
  close(): Promise<void>;
}

/**
 * A fork's own events; `project` (with its `graph`): an edited copy of the same project (the
 * same resources and actors' logins; other expectations, bodies, paths), as a calibration
 * tries its proposals; `keepAnswers`: keep each operation's latest answer for `answer()`.
 */
export interface ForkOptions extends Pick<RunnerOptions, 'onEvent' | 'graph' | 'keepAnswers'> {
  project?: Project;
}

export function createRunner(project: Project, options: RunnerOptions = {}): Runner {
  const processEnv = options.processEnv ?? process.env;
  const redactor = options.redactor ?? createRedactor();
  const environment = chooseEnvironment(project, options.env);
  let hooks: HookRunner | undefined;
  const jars = new Map<string, CookieJar>();
  const ctx = {
    project,
    graph: options.graph ?? buildGraph(project),
    state: new RunState(project.resources.keys()),
    http: createHttpClient({ env: processEnv, brake: options.brake }),
    secrets: createSecretStore({ projectName: project.name, env: processEnv, onReveal: (v: string) => redactor.add(v) }),
    redactor,
    get hooks() {
      hooks ??= createHookRunner({ projectDir: project.dir, timeoutMs: options.hookTimeoutMs });
      return hooks;
    },
    environment,
    vars: collectVars(options.vars, processEnv),
    options,
    jar(actor: string | undefined) {
      const key = actor ?? '';
      let jar = jars.get(key);
      if (!jar) jars.set(key, (jar = new CookieJar()));
      return jar;
    },
    emit(event) {
      options.onEvent?.(event);
    },
    now: options.clock ?? (() => Date.now()),
    outage: newOutage(),
    answers: options.keepAnswers ? new Map() : undefined,
  } as RunContext;
  ctx.sessions = new Sessions(ctx);
  let loaded: Promise<void> | undefined;
  // Once, at the first run rather than in createRunner (which is synchronous): a runner that
  // is never run reads nothing. What could not be read stays missing for this run, forks included.
  const ready = () => (loaded ??= loadForRender(ctx));
  return runnerOver(ctx, ready, async () => {
    await Promise.all([ctx.http.close(), hooks?.close()]);
  });
}

/** A fork's context: what is shared is the root's; the state (sessions aside), the memo and the events are its own. */
function forkContext(root: RunContext, { onEvent, project, graph, keepAnswers }: ForkOptions): RunContext {
  const ctx: RunContext = Object.create(root) as RunContext;
  if (project) {
    ctx.project = project;
    ctx.graph = graph ?? buildGraph(project);
  }
  ctx.state = new RunState(ctx.project.resources.keys(), root.state.sessionValues);
  ctx.options = { ...root.options, onEvent, keepAnswers };
  ctx.answers = keepAnswers ? new Map() : undefined;
  ctx.emit = (event) => onEvent?.(event);
  ctx.sessions = root.sessions.forFork(ctx);
  return ctx;
}

function runnerOver(ctx: RunContext, ready: () => Promise<void>, close: () => Promise<void>): Runner {
  const { project, redactor } = ctx;
  const scheduler = new Scheduler(ctx);
  const sequential = (ctx.options.concurrency ?? 1) <= 1;

  return {
    async run(operationId) {
      await ready();
      const generation = scheduler.nextGeneration();
      if (!sequential || !project.operations.has(operationId)) return scheduler.request(operationId, generation);
      const [result] = await scheduler.runInOrder(scheduleOrder(ctx.graph, [operationId]), new Set([operationId]), generation);
      return result;
    },
    async runMany(operationIds, order) {
      const started = performance.now();
      await ready();
      const generation = scheduler.nextGeneration();
      const asked = new Set(operationIds);
      const known = operationIds.filter((id) => project.operations.has(id));
      const unknown = operationIds.filter((id) => !project.operations.has(id));
      const plan = order ?? scheduleOrder(ctx.graph, known);
      const askedOrder = [...plan.filter((id) => asked.has(id)), ...unknown];
      let results: OperationResult[];
      if (sequential) {
        // Sequential runs keep the schedule order exactly, prerequisites included (DELETEs
        // last among ready operations): what --dry-run prints is what is sent.
        results = await scheduler.runInOrder(plan, asked, generation);
        for (const id of unknown) results.push(await scheduler.request(id, generation));
      } else {
        // DELETEs still go last: they start once every other asked operation has ended, so
        // that a DELETE never races a read (or a use) of what it deletes; and those of what is
        // nested in an instance end before the instance's own starts.
        const isDelete = (id: string) => project.operations.get(id)?.method === 'DELETE';
        const levels = deleteLevels(ctx.graph);
        const levelOf = (id: string) => levels[ctx.graph.indexOf.get(id) ?? -1] ?? 0;
        const running = new Map<string, Promise<OperationResult>>();
        const start = (ids: string[]) => Promise.all(ids.map((id) => running.set(id, scheduler.request(id, generation)).get(id)!));
        await start(askedOrder.filter((id) => !isDelete(id)));
        const deletes = askedOrder.filter(isDelete);
        for (const level of [...new Set(deletes.map(levelOf))].sort((a, b) => a - b)) await start(deletes.filter((id) => levelOf(id) === level));
        results = await Promise.all(askedOrder.map((id) => running.get(id)!));
      }
      // each as the reuses in this run left it (a prerequisite of a later one names it)
      results = results.map((r) => scheduler.current(r));
      return {
        results,
        passed: results.filter((r) => r.status === 'passed').length,
        failed: results.filter((r) => r.status === 'failed').length,
        skipped: results.filter((r) => r.status === 'skipped').length,
        ms: Math.round(performance.now() - started),
      };
    },
    result: (id) => scheduler.result(id),
    answer: (id) => ctx.answers?.get(id),
    values(name, index) {
      const instance = ctx.state.newest(name, index);
      if (instance) return redactor.value({ ...instance.values });
      const session = ctx.state.session(name);
      return session ? redactor.value({ ...session }) : undefined;
    },
    fork(forkOptions = {}) {
      const forked = forkContext(ctx, forkOptions);
      // an edited project may name what the root's does not (a faker value, a secret)
      let loadedToo: Promise<void> | undefined;
      const readyToo = forkOptions.project ? () => (loadedToo ??= ready().then(() => loadForRender(forked))) : ready;
      return runnerOver(forked, readyToo, async () => {});
    },
    async probe(operationId, overrides = {}) {
      await ready();
      return scheduler.probe(operationId, overrides);
    },
    async cleanUp() {
      await ready();
      return cleanUp(ctx);
    },
    close,
  };
}
