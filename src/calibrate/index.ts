// `flow calibrate`: run operations against the live API and, for every expectation a real
// answer contradicts, propose the smallest edit that answer proves. Each round runs the plan
// on a fresh runner over a copy of the model with the proposals so far; it stops when a
// round proves nothing new (a fixed status can reveal a wrong extraction behind it).
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import { createRunner, type OperationResult, type RunnerOptions } from '../runner/index.js';
import type { FlowResponse } from '../http/index.js';
import { createRedactor, type Redactor } from '../redact/index.js';
import { diagnose, observedOf } from './diagnose.js';
import { withEdits } from './model.js';
import { planCalibration } from './safety.js';
import { proveLinks } from './prove-links.js';
import type { SearchContext } from './repair.js';
import type { Calibration, CalibrationPlan, Edit, OpenQuestion, Probe, Proposal, SafetyFlags } from './types.js';

export { planCalibration } from './safety.js';
export { applyCalibration } from './apply.js';
export type * from './types.js';

export interface CalibrateOptions extends SafetyFlags, Pick<RunnerOptions, 'env' | 'vars' | 'processEnv' | 'onEvent' | 'brake'> {
  graph?: ProjectGraph;
  /** shared by every run of the calibration (made when absent) */
  redactor?: Redactor;
  /** the schema the description gives a body field, for the value proposed for it */
  fieldSchema?: SearchContext['fieldSchema'];
}

/** Rounds are bounded: each proof removes one failure (a login, a field, a link), and a chain of them is short. */
const MAX_ROUNDS = 10;

export async function calibrate(project: Project, asked: readonly string[], options: CalibrateOptions): Promise<Calibration> {
  let plan: CalibrationPlan = planCalibration(project, options.graph ?? buildGraph(project), asked, options);
  const proposals: Proposal[] = [];
  const edited = new Set<string>();
  const probes: Probe[] = [];
  let model = project;
  let questions: OpenQuestion[] = [];
  let results: OperationResult[] = [];
  let rounds = 0;
  // One redactor for every run: it learns each secret and login token as it is used, and what
  // it would hide never goes into an edit (an answer keyed by an API key).
  options = { ...options, redactor: options.redactor ?? createRedactor() };
  const redactor = options.redactor!;
  const isSecret = (text: string): boolean => redactor.text(text) !== text;
  const tryRun = (p: Project, id: string, purpose: string) => runOne(p, id, options, record(probes, purpose));
  const fieldSchema = options.fieldSchema;
  while (rounds < MAX_ROUNDS) {
    rounds++;
    const graph = buildGraph(model);
    plan = planCalibration(model, graph, asked, options);
    const round = plan.run.length
      ? await runPlan(model, graph, plan, options, record(probes, `round ${rounds}`))
      : { results: [], responses: new Map<string, FlowResponse>() };
    results = round.results;
    const found = { proposals: [] as Proposal[], questions: [] as OpenQuestion[] };
    const applied = new Set(edited);
    const pending: Edit[] = [];
    for (const r of results) {
      const f = await diagnose(r, { project: model, response: round.responses.get(r.operation), edited, applied, pending, tryRun, fieldSchema, isSecret });
      found.proposals.push(...f.proposals);
      found.questions.push(...f.questions);
    }
    // ids given from outside: linked to their producer where this round's answers prove it
    const linked = await proveLinks(model, plan, results, round.responses, { project: model, edited, pending, tryRun, fieldSchema, isSecret });
    found.proposals.push(...linked.proposals);
    // a 404 whose link is proven is answered
    questions = [...found.questions.filter((q) => !linked.proven.has(q.operation)), ...linked.questions];
    const fresh = found.proposals.filter((p) => p.edit.kind !== 'login');
    proposals.push(...found.proposals);
    if (!fresh.length) break;
    model = withEdits(
      model,
      fresh.map((p) => p.edit),
    );
  }
  const observed = new Map<string, string>();
  for (const r of results) {
    const o = observedOf(model, r);
    if (r.status === 'passed' && o.status !== undefined) observed.set(r.operation, `${o.method} ${o.path} -> ${o.status}`);
  }
  return { plan, proposals, questions, results, observed, rounds, probes };
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

function runnerOptions(project: Project, options: CalibrateOptions, onEvent: RunnerOptions['onEvent'], graph = buildGraph(project)): RunnerOptions {
  return {
    graph,
    env: options.env,
    vars: options.vars,
    processEnv: options.processEnv,
    redactor: options.redactor,
    guardWrites: true,
    brake: options.brake,
    onEvent: (e) => {
      onEvent?.(e);
      options.onEvent?.(e);
    },
  };
}

/** One round: the plan in order; every operation's result and its full response (kept for the field search only, never shown). */
async function runPlan(project: Project, graph: ProjectGraph, plan: CalibrationPlan, options: CalibrateOptions, onEvent: RunnerOptions['onEvent']) {
  const responses = new Map<string, FlowResponse>();
  const runner = createRunner(project, {
    ...runnerOptions(project, options, onEvent, graph),
    responseCheck: ({ operation, response }) => {
      responses.set(operation, response);
      return undefined;
    },
  });
  try {
    await runner.runMany(plan.run);
    const results = plan.order.flatMap((id) => runner.result(id) ?? []);
    return { results, responses };
  } finally {
    await runner.close();
  }
}

async function runOne(project: Project, operation: string, options: CalibrateOptions, onEvent: RunnerOptions['onEvent']): Promise<OperationResult> {
  const runner = createRunner(project, runnerOptions(project, options, onEvent));
  try {
    return await runner.run(operation);
  } finally {
    await runner.close();
  }
}
