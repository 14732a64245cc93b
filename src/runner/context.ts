// Everything one runner shares across its operations. Built once by createRunner.
import type { ProjectGraph } from '../graph/index.js';
import type { Environment, Project } from '../project/index.js';
import { type HookRunner, lookupInState, type RenderContext, type SecretStore } from '../runtime/index.js';
import type { CookieJar, FlowResponse, HttpClient } from '../http/index.js';
import type { Redactor } from '../redact/index.js';
import type { Exchange, HookLog, ResultWarning, RunEvent, RunnerOptions } from './types.js';
import type { Sessions } from './sessions.js';
import type { Instance, RunState } from './state.js';

export interface RunContext {
  project: Project;
  graph: ProjectGraph;
  state: RunState;
  http: HttpClient;
  secrets: SecretStore;
  redactor: Redactor;
  hooks: HookRunner;
  sessions: Sessions;
  environment?: Environment;
  vars: Record<string, string>;
  options: RunnerOptions;
  /** one cookie jar per actor; '' for operations without an actor */
  jar(actor: string | undefined): CookieJar;
  emit(event: RunEvent): void;
  now(): number;
  /** each operation's latest answer, kept with the keepAnswers option (runner.answer) */
  answers?: Map<string, FlowResponse>;
  /** the answers seen, for the stop when most turn to 503 (outage.ts); shared with forks */
  outage: import('./outage.js').Outage;
}

/** The HTTP exchanges of one operation, logins and poll attempts included. */
export interface Trace {
  operation: string;
  exchanges: Exchange[];
  /** what its hooks printed, redacted */
  hookLogs?: HookLog[];
  /** what a responseCheck reported without failing the operation */
  warnings?: ResultWarning[];
}

/** A for_each binding: inside, `{{<resource>.f}}` reads this instance. */
export interface Binding {
  resource: string;
  instance: Instance;
  /** values for `{{env.X}}` in this one request, given as data like --var (the clean-up's, origin-removal.ts) */
  vars?: Record<string, string>;
}

// Without a for_each binding, every operation of a run renders against the same context.
// The keys a run draws are its own: one map per runner (a fork draws its own), bound or not.
const drawnKeys = new WeakMap<RunContext, Map<string, unknown>>();

function drawnOf(ctx: RunContext): Map<string, unknown> {
  let drawn = drawnKeys.get(ctx);
  if (!drawn) drawnKeys.set(ctx, (drawn = new Map()));
  return drawn;
}

const plainContexts = new WeakMap<RunContext, RenderContext>();

export function renderContext(ctx: RunContext, binding?: Binding): RenderContext {
  if (!binding) {
    let rc = plainContexts.get(ctx);
    if (!rc) plainContexts.set(ctx, (rc = makeRenderContext(ctx)));
    return rc;
  }
  return makeRenderContext(ctx, binding);
}

function makeRenderContext(ctx: RunContext, binding?: Binding): RenderContext {
  const view = {
    session: (name: string) => ctx.state.session(name),
    instances: (name: string) => (binding && name === binding.resource ? [binding.instance.values] : ctx.state.values(name)),
  };
  return {
    env: ctx.environment?.variables ?? {},
    envName: ctx.environment?.id,
    drawn: drawnOf(ctx),
    vars: binding?.vars ? { ...ctx.vars, ...binding.vars } : ctx.vars,
    secrets: ctx.secrets,
    faker: ctx.options.random,
    lookupScoped: (ref) =>
      // an index always means the resource list, even inside for_each
      ref.index !== undefined && binding?.resource === ref.scope
        ? lookupInState(ref, { session: view.session, instances: (n) => ctx.state.values(n) })
        : lookupInState(ref, view),
  };
}
