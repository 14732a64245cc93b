// `flow calibrate`: run operations against the live API and, for every expectation a real
// answer contradicts, propose the smallest edit that answer proves. One runner for the whole
// calibration (one HTTP client, each actor logged in once); each round runs the plan on a fork
// of it over a copy of the model with the proposals so far, and each try on a fork of its own;
// it stops when a round proves nothing new (a fixed status can reveal a wrong extraction
// behind it).
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import { createRunner, type ForkOptions, type OperationResult, type Runner, type RunnerOptions } from '../runner/index.js';
import type { FlowResponse } from '../http/index.js';
import { createRedactor, type Redactor } from '../redact/index.js';
import { diagnose, observedOf } from './diagnose.js';
import { graphOf, targetOf, withEdits } from './model.js';
import { planCalibration } from './safety.js';
import { proveCreateFirst } from './create-first.js';
import { proveLinks } from './prove-links.js';
import { proveLinkParams } from './link-params.js';
import { ownInstances } from './own-instance.js';
import { withTentativeValues, type Tentative } from './unset-fields.js';
import type { SearchContext } from './repair.js';
import type { Calibration, CalibrationPlan, Edit, OpenQuestion, Probe, Proposal, SafetyFlags } from './types.js';

export { planCalibration } from './safety.js';
export { applyCalibration } from './apply.js';
export { withTentativeValues } from './unset-fields.js';
export type * from './types.js';

export interface CalibrateOptions extends SafetyFlags, Pick<RunnerOptions, 'env' | 'vars' | 'processEnv' | 'onEvent' | 'brake' | 'named'> {
  graph?: ProjectGraph;
  /** shared by every run of the calibration (made when absent) */
  redactor?: Redactor;
  /** the schema the description gives a body field, for the value proposed for it */
  fieldSchema?: SearchContext['fieldSchema'];
  /** the query parameters the description declares for an operation, tried after a 400/422 */
  queryParams?: SearchContext['queryParams'];
}

/** Rounds are bounded: each proof removes one failure (a login, a field, a link), and a chain of them is short. */
const MAX_ROUNDS = 10;

export async function calibrate(project: Project, asked: readonly string[], options: CalibrateOptions): Promise<Calibration> {
  // One redactor for every run: it learns each secret and login token as it is used, and what
  // it would hide never goes into an edit (an answer keyed by an API key).
  options = { ...options, redactor: options.redactor ?? createRedactor() };
  const root = createRunner(project, {
    env: options.env,
    vars: options.vars,
    processEnv: options.processEnv,
    redactor: options.redactor,
    graph: options.graph,
    guardWrites: true,
    brake: options.brake,
    named: options.named ?? [],
  });
  try {
    return await calibrateOn(root, project, asked, options);
  } finally {
    await root.close();
  }
}

async function calibrateOn(root: Runner, project: Project, asked: readonly string[], options: CalibrateOptions): Promise<Calibration> {
  let plan: CalibrationPlan = planCalibration(project, options.graph ?? graphOf(project), asked, options);
  const proposals: Proposal[] = [];
  const edited = new Set<string>();
  const probes: Probe[] = [];
  // each operation is tried once as each other actor (other-actor.ts), whatever the round
  const triedAs = new Set<string>();
  // each list is tried once after each create (create-first.ts), whatever the round
  const triedAfter = new Map<string, string>();
  // a value tried for each variable nobody gave that is only a body field: proposed where it passes
  const { model: withTries, tentative } = withTentativeValues(
    project,
    options.graph ?? graphOf(project),
    options.unsetVariables?.(project, [...project.operations.keys()]) ?? [],
    options.fieldSchema,
  );
  for (const t of tentative) edited.add(targetOf(t.edit));
  let model = withTries;
  let questions: OpenQuestion[] = [];
  let results: OperationResult[] = [];
  let rounds = 0;
  // every producer a round added (a link proven makes it a prerequisite in the next round's plan)
  const added = new Map<string, string>();
  const redactor = options.redactor!;
  const isSecret = (text: string): boolean => redactor.text(text) !== text;
  const tryRun = (p: Project, id: string, purpose: string) => runOne(root, project, p, id, options, record(probes, purpose));
  const tryWith = (p: Project, id: string, purpose: string, also: readonly string[]) => runWith(root, project, p, id, also, options, record(probes, purpose));
  const tryAfter = (p: Project, before: readonly string[], id: string, purpose: string) =>
    runAfter(root, project, p, before, id, options, record(probes, purpose));
  // a refused operation an earlier round's try proved an edit for is tried alone once (own-instance.ts)
  const triedAlone = new Set<string>();
  // each operation that wants a value a link of another answer carries is tried once (link-params.ts)
  const triedLinks = new Set<string>();
  const proven = new Set<string>();
  const { fieldSchema, queryParams } = options;
  while (rounds < MAX_ROUNDS) {
    rounds++;
    const graph = graphOf(model);
    plan = planCalibration(model, graph, asked, options);
    for (const a of plan.added) if (!added.has(a.operation)) added.set(a.operation, a.for);
    const round = plan.run.length
      ? await runPlan(root, project, model, graph, plan, options, record(probes, `round ${rounds}`))
      : { results: [], responses: new Map<string, FlowResponse>() };
    results = round.results;
    const found = { proposals: [] as Proposal[], questions: [] as OpenQuestion[] };
    const applied = new Set(edited);
    const pending: Edit[] = [];
    for (const r of results) {
      const response = round.responses.get(r.operation);
      const f = await diagnose(r, {
        project: model,
        response,
        responses: round.responses,
        edited,
        applied,
        pending,
        tryRun,
        fieldSchema,
        queryParams,
        isSecret,
        triedAs,
      });
      found.proposals.push(...f.proposals);
      found.questions.push(...f.questions);
    }
    // ids given from outside: linked to their producer where this round's answers prove it
    const linked = await proveLinks(model, plan, results, round.responses, { project: model, edited, pending, tryRun, fieldSchema, queryParams, isSecret });
    found.proposals.push(...linked.proposals);
    // a value a list was to give and the list found nothing: the list tried after a create
    const listed = await proveCreateFirst(results, { project: model, graph, flags: options, edited, pending, tried: triedAfter, tryWith });
    found.proposals.push(...listed.proposals);
    // a value a link in another operation's answer carries (a reset link's token), wanted by name
    const carried = await proveLinkParams(
      model,
      results,
      round.responses,
      { project: model, edited, pending, tryRun, fieldSchema, queryParams, isSecret },
      triedLinks,
    );
    found.proposals.push(...carried.proposals);
    // refused in company, passing alone: an instance of its own for it
    const searched = new Set([...found.proposals, ...linked.proposals, ...listed.proposals].map((p) => p.operation));
    const owned = await ownInstances(results, new Set([...searched, ...linked.proven, ...listed.handled, ...carried.proven]), {
      project: model,
      graph,
      edited,
      pending,
      tryRun,
      tryAfter,
      triedAlone,
      proven,
    });
    found.proposals.push(...owned);
    // a 404 whose link is proven is answered; an empty list says what its try showed
    const answered = (id: string) => linked.proven.has(id) || listed.handled.has(id) || carried.proven.has(id) || owned.some((p) => p.operation === id);
    questions = [...found.questions.filter((q) => !answered(q.operation)), ...linked.questions, ...listed.questions];
    for (const p of found.proposals) proven.add(p.operation);
    const fresh = found.proposals.filter((p) => p.edit.kind !== 'login');
    proposals.push(...found.proposals);
    if (!fresh.length) break;
    model = withEdits(
      model,
      fresh.map((p) => p.edit),
    );
  }
  proposals.push(...provenTentative(model, tentative, results));
  const observed = new Map<string, string>();
  for (const r of results) {
    const o = observedOf(model, r);
    if (r.status === 'passed' && o.status !== undefined) observed.set(r.operation, `${o.method} ${o.path} -> ${o.status}`);
  }
  plan = { ...plan, added: [...added].map(([operation, needed]) => ({ operation, for: needed })) };
  return { plan, proposals, questions, results, observed, rounds, probes };
}

/** The tried values whose every operation passed in the last round: each proposed, with the answer that proves it. */
function provenTentative(model: Project, tentative: readonly Tentative[], results: readonly OperationResult[]): Proposal[] {
  const passed = new Map(results.filter((r) => r.status === 'passed').map((r) => [r.operation, r]));
  const proven = (variable: string) => tentative.every((t) => t.variable !== variable || passed.has(t.edit.operation));
  return tentative.flatMap((t) => {
    const r = passed.get(t.edit.operation);
    if (!r || !proven(t.variable)) return [];
    const o = observedOf(model, r);
    const why = `\`{{env.${t.variable}}}\` was never given (<SET_VIA_--var>), and with ${JSON.stringify(t.edit.value)} for \`${t.edit.field}\` it answered ${o.status ?? 'passed'}`;
    return [{ edit: t.edit, operation: t.edit.operation, observed: o, why }];
  });
}

/** An onEvent that lists every request sent under `purpose`. */
function record(probes: Probe[], purpose: string): RunnerOptions['onEvent'] {
  return (e) => {
    if (e.type !== 'request' || probes.length >= MAX_PROBES) return;
    probes.push({ purpose, method: e.request.method, url: e.request.url, status: e.response?.status });
  };
}

/** The report lists every request; past this many a run is not a calibration any more. */
const MAX_PROBES = 2000;

/** Each fork's events: the calibration's record, and the caller's. */
function events(options: CalibrateOptions, onEvent: RunnerOptions['onEvent']): RunnerOptions['onEvent'] {
  return (e) => {
    onEvent?.(e);
    options.onEvent?.(e);
  };
}

/**
 * A runner over `model` for one round or one try: a fork of the calibration's runner, which
 * shares its logins, unless an edit changed an actor's login (an api_key's form): that one
 * needs a login of its own, on a runner of its own.
 */
async function withRunner<T>(
  root: Runner,
  base: Project,
  model: Project,
  graph: ProjectGraph | undefined,
  fork: Omit<ForkOptions, 'project' | 'graph'>,
  options: CalibrateOptions,
  use: (runner: Runner) => Promise<T>,
): Promise<T> {
  // inject.headers are rendered on each request from the session's values: only a changed login needs its own
  const sameLogins = [...model.actors].every(([id, actor]) => base.actors.get(id)?.auth === actor.auth && base.actors.get(id)?.session === actor.session);
  if (sameLogins) {
    const forked = root.fork({ ...fork, project: model, graph });
    try {
      return await use(forked);
    } finally {
      // what the try or round created is deleted, each switch written back (docs/format.md#ownership)
      await forked.cleanUp();
    }
  }
  const runner = createRunner(model, {
    env: options.env,
    vars: options.vars,
    processEnv: options.processEnv,
    redactor: options.redactor,
    graph: graph ?? buildGraph(model),
    ...fork,
    guardWrites: true,
    brake: options.brake,
    named: options.named ?? [],
  });
  try {
    return await use(runner);
  } finally {
    try {
      await runner.cleanUp();
    } finally {
      await runner.close();
    }
  }
}

/** One round: the plan in order over the round's model; every operation's result and its full response (kept for the field search only, never shown). */
async function runPlan(
  root: Runner,
  base: Project,
  project: Project,
  graph: ProjectGraph,
  plan: CalibrationPlan,
  options: CalibrateOptions,
  onEvent: RunnerOptions['onEvent'],
) {
  return withRunner(root, base, project, graph, { onEvent: events(options, onEvent), keepAnswers: true }, options, async (runner) => {
    await runner.runMany(plan.run);
    const results = plan.order.flatMap((id) => runner.result(id) ?? []);
    const responses = new Map<string, FlowResponse>();
    for (const id of plan.order) {
      const answer = runner.answer(id);
      if (answer) responses.set(id, answer);
    }
    return { results, responses };
  });
}

/** One try: the operation (its prerequisites first) on a runner of its own; its result and those of `also` in the same try. */
async function runWith(
  root: Runner,
  base: Project,
  project: Project,
  operation: string,
  also: readonly string[],
  options: CalibrateOptions,
  onEvent: RunnerOptions['onEvent'],
): Promise<Map<string, OperationResult>> {
  return withRunner(root, base, project, undefined, { onEvent: events(options, onEvent) }, options, async (runner) => {
    const out = new Map([[operation, await runner.run(operation)]]);
    for (const id of also) {
      const r = runner.result(id);
      if (r) out.set(id, r);
    }
    return out;
  });
}

/** One try: each of `before` in turn, then the operation, on one runner (what they made is shared, unless forced). */
async function runAfter(
  root: Runner,
  base: Project,
  project: Project,
  before: readonly string[],
  operation: string,
  options: CalibrateOptions,
  onEvent: RunnerOptions['onEvent'],
): Promise<OperationResult> {
  return withRunner(root, base, project, undefined, { onEvent: events(options, onEvent) }, options, async (runner) => {
    for (const id of before) await runner.run(id);
    return runner.run(operation);
  });
}

/** One try of an edit: the operation (its prerequisites first) over the edited model, on a runner of its own. */
async function runOne(
  root: Runner,
  base: Project,
  project: Project,
  operation: string,
  options: CalibrateOptions,
  onEvent: RunnerOptions['onEvent'],
): Promise<OperationResult> {
  return withRunner(root, base, project, undefined, { onEvent: events(options, onEvent) }, options, (runner) => runner.run(operation));
}
