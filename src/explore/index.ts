// `flow explore`: stateful property-based testing from the graph. For each resource, fast-check
// draws sequences of its operations (create, read, update, delete, read-after-delete, bodies
// that break the schema) with bodies drawn from the description's request schemas; ids come
// from real creates run through the graph. Every sequence runs on a fork of one runner (the
// run's HTTP client and logins shared, its instances its own) and sends each step as a probe.
// A sequence whose answers show a problem is shrunk to the shortest sequence and smallest
// bodies that still show it; its steps are then sent again on a fresh fork, REPROOFS times, and
// only a problem every replay shows again is a finding (else it is reported as flaky). Rounds
// go over the resources until the budget (wall time) is spent; a finding already made (same
// code, same operation) does not stop later sequences.
import fc from 'fast-check';
import { buildGraph, scheduleOrder, writeTarget, type ProjectGraph } from '../graph/index.js';
import type { Operation, Project } from '../project/index.js';
import { createRedactor, type Redactor } from '../redact/index.js';
import { createRunner, type CleanupEntry, type RunnerOptions } from '../runner/index.js';
import { emptyAnswers, type AnswerCounts } from './answers.js';
import { crossActorPass, type AttemptCount } from './authz-run.js';
import type { ContractSchemas } from './checks.js';
import { requestSchema } from './request-schema.js';
import { reproduces } from './reprove.js';
import { bodiesOf, type Bodies } from './bodies.js';
import { SchemaRefusal } from './schema-bounds.js';
import { sequenceArbitrary } from './sequence.js';
import type { ExploreFinding } from './replay.js';
import { forkEvents, Session, type FindingError, type Seen, type SessionContext } from './session.js';
import { resourceTargets, type Blocked, type SkippedOperation } from './targets.js';

export { writeReplay, writeReplays, prepareReplays } from './replay.js';
export { requestSchema } from './request-schema.js';
export { ANSWER_CLASSES } from './answers.js';

export interface ExploreOptions extends Pick<RunnerOptions, 'env' | 'vars' | 'processEnv' | 'brake'> {
  contract: ContractSchemas;
  graph?: ProjectGraph;
  /** wall time, in ms */
  budgetMs: number;
  /** stop after this many rounds (each resource's turn, RUNS_PER_ROUND sequences), if the budget lasts: the same work on any machine */
  rounds?: number;
  seed: number;
  /** bulk operations (DELETE, PUT, PATCH on a collection path) too */
  destructive: boolean;
  /** also try each instance one actor creates as every other actor and with no credentials (authz-run.ts) */
  authz?: boolean;
  /** the <SET_VIA_--var> variables the operations in `order` need and nobody gave (the CLI's, shared with calibrate) */
  unsetVariables?: (project: Project, order: string[]) => string[];
  /** the operations chosen (--only/--exclude); absent: every one */
  selected?: (operationId: string) => boolean;
  /** the operations the user named (--only): a switch is explored only then (docs/format.md#ownership) */
  named?: readonly string[];
  /** the run's redactor (the CLI's, which knows the FLOW_SECRET_* values) */
  redactor?: Redactor;
  onProgress?: (p: ExploreProgress) => void;
  /** each finding once its replay has shown it again, as it is made */
  onFinding?: (f: ExploreFinding) => void | Promise<void>;
}

export interface ExploreProgress {
  /** steps run (an operation sent as a step, its prerequisites not counted) */
  operations: number;
  requests: number;
  findings: number;
  sequences: number;
  ms: number;
}

export interface ExploreResult extends Omit<ExploreProgress, 'findings'> {
  findings: ExploreFinding[];
  /** problems a sequence showed and its replay did not: not findings */
  flaky: FlakyProblem[];
  /** steps that got an answer: none means nothing was explored (a login or a prerequisite failed) */
  answered: number;
  /** every answer of the run (logins and prerequisites included), by class of status */
  answers: AnswerCounts;
  /** sequences that had a step answered with something else than 401 or 403 */
  pastLogin: number;
  /** the resources explored */
  resources: string[];
  skipped: SkippedOperation[];
  /** with --authz: the cross-actor attempts sent and refused, by `<owner> -> <other>` (`no credentials` for none) */
  attempts?: Record<string, AttemptCount>;
  /** what the clean-ups deleted (a count) and could not remove, with why */
  cleanup: { deleted: number; left: CleanupEntry[] };
}

interface FlakyProblem {
  code: string;
  operation: string;
  message: string;
  /** how many sequences showed it (the replays of the first did not, every time) */
  shown: number;
  /** how many replays of the first in a row showed it before one did not */
  replayed: number;
}

/** Sequences per fast-check run: a round gives every resource a turn before the next. */
const RUNS_PER_ROUND = 40;
/** How long the clean-up and a step already under way may take after the budget. */
const TIMEOUT_SHARE = 0.5;
/**
 * Replays that must each show a problem for it to be a finding: a server that fails at random
 * (a health check that answers 503 more often than not) seldom shows it every time, and a
 * finding whose replay does not fail is one nobody can trust.
 */
const REPROOFS = 5;
/** How long past the budget a finding's replays may run: a finding made at the end is re-proven too. */
const REPROOF_GRACE_MS = 5000;

export async function explore(project: Project, options: ExploreOptions): Promise<ExploreResult> {
  const started = Date.now();
  const deadline = started + options.budgetMs;
  const graph = options.graph ?? buildGraph(project);
  const bodies = new Map<string, Bodies>();
  const bodiesFor = (op: Operation) => {
    if (!bodies.has(op.id)) bodies.set(op.id, bodiesOf(op, requestSchema(options.contract.description, options.contract.schemas, op), options.seed));
    return bodies.get(op.id)!;
  };
  // what cannot be sent is skipped, the rest explored
  const blocked: Blocked = (op) => {
    if (options.selected && !options.selected(op.id)) return { why: 'left out by --only/--exclude' };
    if (writeTarget(graph, op).kind === 'switch' && !options.named?.includes(op.id)) {
      return { why: 'a switch (a write whose path names no instance: a setting, a mode): explored only when named with --only' };
    }
    const unset = options.unsetVariables?.(project, scheduleOrder(graph, [op.id])) ?? [];
    if (unset.length) return { why: `needs ${unset.map((n) => `env.${n}`).join(', ')}, which is <SET_VIA_--var> and was not given`, unset };
    // drawing is synchronous (no timer fires meanwhile): past the budget, the rest is not prepared
    if (Date.now() >= deadline) return { why: 'the budget was spent before its values were drawn' };
    try {
      bodiesFor(op);
    } catch (err) {
      if (!(err instanceof SchemaRefusal)) throw err;
      return { code: err.code, pointer: err.pointer, why: err.why };
    }
    return undefined;
  };
  const { targets, skipped } = resourceTargets(project, graph, options.destructive, blocked);
  const findings: ExploreFinding[] = [];
  const flaky = new Map<string, FlakyProblem>();
  const progress = { operations: 0, requests: 0, findings: 0, sequences: 0, ms: 0 };
  const counters = { steps: 0, answered: 0, requests: 0 };
  const answers = emptyAnswers();
  let pastLogin = 0;
  const report = () => {
    Object.assign(progress, { operations: counters.steps, requests: counters.requests, findings: findings.length, ms: Date.now() - started });
    options.onProgress?.({ ...progress });
  };
  const redactor = options.redactor ?? createRedactor();
  const ctx: SessionContext = {
    contract: options.contract,
    redactor,
    known: new Set(),
    flaky: new Map(),
    deadline,
    timeoutMs: Math.max(1000, Math.round(options.budgetMs * TIMEOUT_SHARE)),
    creates: new Set(targets.flatMap((t) => (t.create ? [t.create.id] : []))),
    accepts: (op) => bodies.get(op.id)?.accepts,
    counters,
    onStep: report,
    cleanup: { deleted: 0, left: [] },
  };
  // one runner for the run: one HTTP client, each actor logged in once; a fork per sequence
  // writes go only to loopback or the hosts the environment declares (guardWrites), at the run's rate
  const root = createRunner(project, {
    env: options.env,
    vars: options.vars,
    processEnv: options.processEnv,
    graph,
    redactor,
    guardWrites: true,
    brake: options.brake,
    // one seed for every random value: the draws, and the project's {{$.faker.*}} and {{$.uuid}}
    random: { seed: options.seed },
  });
  const open = (seen?: Seen[], context = ctx): Session => {
    const fork = root.fork({ onEvent: forkEvents(ctx, answers) });
    return new Session(context, fork, seen);
  };
  let attempts: Record<string, AttemptCount> | undefined;
  try {
    // the cross-actor checks first, on the same budget and runner (authz-run.ts)
    if (options.authz) {
      attempts = await crossActorPass(project, root, { ...ctx, seed: options.seed }, targets, async (f) => {
        findings.push(f);
        report();
        await options.onFinding?.(f);
      });
    }
    const rounds = options.rounds ?? Infinity;
    for (let round = 0; round < rounds && Date.now() < deadline && targets.length; round++) {
      for (const [i, t] of targets.entries()) {
        if (Date.now() >= deadline) break;
        const seed = (options.seed + round * targets.length + i) | 0;
        const property = fc.asyncProperty(sequenceArbitrary(t, bodiesFor), async (steps) => {
          if (Date.now() >= deadline || ctx.stop) return;
          progress.sequences++;
          const session = open();
          try {
            await fc.asyncModelRun(() => ({ model: { live: false, deleted: false }, real: session }), steps);
          } finally {
            if (session.pastLogin) pastLogin++;
            await session.close();
          }
        });
        const details = await fc.check(property, { seed, numRuns: RUNS_PER_ROUND });
        if (ctx.stop) throw ctx.stop;
        if (!details.failed) continue;
        if (details.errorInstance === null) {
          // fast-check could not draw bodies the schema accepts (too many skips): leave the resource
          skipped.push({ operation: t.resource, why: 'no body its request schema accepts could be drawn' });
          targets.splice(i, 1);
          break;
        }
        // by code, not instanceof (docs/design.md#errors-by-code): anything else is a bug of ours, not the API's
        const thrown = details.errorInstance;
        if ((thrown as { code?: string }).code !== 'E_FINDING') throw thrown instanceof Error ? thrown : new Error(String(thrown));
        const err = thrown as FindingError;
        const key = `${err.problem.code} ${err.operation}`;
        // the replays may finish a little past the budget, as the clean-up may
        const replayContext = { ...ctx, deadline: Math.max(deadline, Date.now()) + REPROOF_GRACE_MS };
        let replayed = 0;
        while (replayed < REPROOFS) {
          const seen: Seen[] = [];
          if (!(await reproduces(open(seen, replayContext), seen, project, err.steps, err.problem.code, err.operation))) break;
          replayed++;
        }
        if (replayed < REPROOFS) {
          const entry = { code: err.problem.code, operation: err.operation, message: err.problem.message, shown: 1, replayed };
          flaky.set(key, entry);
          ctx.flaky.set(key, entry);
          continue;
        }
        const finding: ExploreFinding = {
          code: err.problem.code,
          operation: err.operation,
          message: err.problem.message,
          steps: err.steps,
          problem: err.problem,
          seed,
        };
        ctx.known.add(key);
        findings.push(finding);
        report();
        await options.onFinding?.(finding);
      }
    }
  } finally {
    await root.close();
  }
  report();
  return {
    ...progress,
    findings,
    flaky: [...flaky.values()],
    answered: counters.answered,
    answers,
    pastLogin,
    resources: targets.map((t) => t.resource),
    skipped,
    attempts,
    cleanup: ctx.cleanup,
  };
}
