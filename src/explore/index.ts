// `flow explore`: stateful property-based testing from the graph. For each resource, fast-check
// draws sequences of its operations (create, read, update, delete, read-after-delete, bodies
// that break the schema) with bodies drawn from the description's request schemas; ids come
// from real creates run through the graph. A sequence whose answers show a problem is shrunk
// to the shortest sequence and smallest bodies that still show it, and becomes a finding.
// Rounds go over the resources until the budget (wall time) is spent; a finding already made
// (same code, same operation) does not stop later sequences.
import fc from 'fast-check';
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import type { Operation, Project } from '../project/index.js';
import { createRedactor, type Redactor } from '../redact/index.js';
import type { RunnerOptions } from '../runner/index.js';
import { crossActorPass } from './authz-run.js';
import type { ContractSchemas } from './checks.js';
import { exploreModel } from './model.js';
import { requestSchema } from './request-schema.js';
import { bodiesOf, sequenceArbitrary, type Bodies } from './sequence.js';
import type { ExploreFinding } from './replay.js';
import { Session, type FindingError, type SessionContext } from './session.js';
import { resourceTargets, type SkippedOperation } from './targets.js';

export { writeReplays } from './replay.js';
export { requestSchema } from './request-schema.js';

export interface ExploreOptions extends Pick<RunnerOptions, 'env' | 'vars' | 'processEnv'> {
  contract: ContractSchemas;
  graph?: ProjectGraph;
  /** wall time, in ms */
  budgetMs: number;
  seed: number;
  /** bulk operations (DELETE, PUT, PATCH on a collection path) too */
  destructive: boolean;
  /** also try each instance one actor creates as every other actor and with no credentials (authz-run.ts) */
  authz?: boolean;
  /** the run's redactor (the CLI's, which knows the FLOW_SECRET_* values) */
  redactor?: Redactor;
  onProgress?: (p: ExploreProgress) => void;
  onFinding?: (f: ExploreFinding) => void;
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
  /** steps that got an answer: none means nothing was explored (a login or a prerequisite failed) */
  answered: number;
  /** the resources explored */
  resources: string[];
  skipped: SkippedOperation[];
  /** with --authz: the cross-actor attempts sent, by `<owner> -> <other>` (`no credentials` for none) */
  attempts?: Record<string, number>;
}

/** Sequences per fast-check run: a round gives every resource a turn before the next. */
const RUNS_PER_ROUND = 40;
/** How long the clean-up and a step already under way may take after the budget. */
const TIMEOUT_SHARE = 0.5;

export async function explore(project: Project, options: ExploreOptions): Promise<ExploreResult> {
  const started = Date.now();
  const deadline = started + options.budgetMs;
  const graph = options.graph ?? buildGraph(project);
  const { targets, skipped } = resourceTargets(project, graph, options.destructive);
  const bodies = new Map<string, Bodies>();
  const bodiesFor = (op: Operation) => {
    if (!bodies.has(op.id)) bodies.set(op.id, bodiesOf(op, requestSchema(options.contract.description, options.contract.schemas, op)));
    return bodies.get(op.id)!;
  };
  const stepOps = targets.flatMap((t) => [t.create, t.read, ...t.writes, t.delete, ...t.lists, ...t.bulk].filter((op): op is Operation => !!op));
  const invalidOps = stepOps.filter((op) => bodiesFor(op).invalid);
  const timeoutMs = Math.max(1000, Math.round(options.budgetMs * TIMEOUT_SHARE));
  const deleteOps = targets.flatMap((t) => (t.delete ? [t.delete.id] : []));
  const model = exploreModel(
    project,
    stepOps.map((op) => op.id),
    invalidOps.map((op) => op.id),
    deleteOps,
    timeoutMs,
  );
  const findings: ExploreFinding[] = [];
  const progress = { operations: 0, requests: 0, findings: 0, sequences: 0, ms: 0 };
  const counters = { steps: 0, answered: 0, requests: 0 };
  const report = () => {
    Object.assign(progress, { operations: counters.steps, requests: counters.requests, findings: findings.length, ms: Date.now() - started });
    options.onProgress?.({ ...progress });
  };
  const ctx: SessionContext = {
    model,
    contract: options.contract,
    redactor: options.redactor ?? createRedactor(),
    runnerOptions: { env: options.env, vars: options.vars, processEnv: options.processEnv, graph: buildGraph(model.project) },
    known: new Set(),
    deadline,
    creates: new Set(targets.flatMap((t) => (t.create ? [t.create.id] : []))),
    deletes: new Map(targets.flatMap((t) => (t.delete ? [[t.resource, t.delete] as const] : []))),
    counters,
    onStep: report,
  };
  // the cross-actor checks first, on the same budget (authz-run.ts)
  const attempts = options.authz
    ? await crossActorPass(
        project,
        { ...ctx.runnerOptions, graph: options.graph, redactor: ctx.redactor },
        { ...ctx, seed: options.seed, timeoutMs },
        targets,
        (f) => {
          findings.push(f);
          options.onFinding?.(f);
        },
      )
    : undefined;
  report();
  for (let round = 0; Date.now() < deadline && targets.length; round++) {
    for (const [i, t] of targets.entries()) {
      if (Date.now() >= deadline) break;
      const seed = (options.seed + round * targets.length + i) | 0;
      const property = fc.asyncProperty(sequenceArbitrary(t, bodiesFor), async (steps) => {
        if (Date.now() >= deadline) return;
        progress.sequences++;
        const session = new Session(ctx);
        try {
          await fc.asyncModelRun(() => ({ model: { live: false, deleted: false }, real: session }), steps);
        } finally {
          await session.close();
        }
      });
      const details = await fc.check(property, { seed, numRuns: RUNS_PER_ROUND });
      if (!details.failed) continue;
      if (details.errorInstance === null) {
        // fast-check could not draw bodies the schema accepts (too many skips): leave the resource
        skipped.push({ operation: t.resource, why: 'no body its request schema accepts could be drawn' });
        targets.splice(i, 1);
        break;
      }
      // by code, not instanceof (STYLE): anything else is a bug of ours, not the API's
      const thrown = details.errorInstance;
      if ((thrown as { code?: string }).code !== 'E_FINDING') throw thrown instanceof Error ? thrown : new Error(String(thrown));
      const err = thrown as FindingError;
      const finding: ExploreFinding = {
        code: err.problem.code,
        operation: err.operation,
        message: err.problem.message,
        steps: err.steps,
        problem: err.problem,
        seed,
      };
      ctx.known.add(`${finding.code} ${finding.operation}`);
      findings.push(finding);
      report();
      options.onFinding?.(finding);
    }
  }
  report();
  return { ...progress, findings, answered: counters.answered, resources: targets.map((t) => t.resource), skipped, attempts };
}
