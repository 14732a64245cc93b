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
import type { Calibration, CalibrationPlan, OpenQuestion, Proposal, SafetyFlags } from './types.js';

export { planCalibration } from './safety.js';
export { applyCalibration } from './apply.js';
export type * from './types.js';

export interface CalibrateOptions extends SafetyFlags, Pick<RunnerOptions, 'env' | 'vars' | 'processEnv' | 'onEvent'> {
  graph?: ProjectGraph;
  /** shared by every run of the calibration (made when absent) */
  redactor?: Redactor;
}

/** Rounds are bounded: each proof removes one failure, and a chain of them is short. */
const MAX_ROUNDS = 6;

export async function calibrate(project: Project, asked: readonly string[], options: CalibrateOptions): Promise<Calibration> {
  const plan: CalibrationPlan = planCalibration(project, options.graph ?? buildGraph(project), asked, options);
  const proposals: Proposal[] = [];
  const edited = new Set<string>();
  let model = project;
  let questions: OpenQuestion[] = [];
  let results: OperationResult[] = [];
  let rounds = 0;
  // One redactor for every run: it learns each secret and login token as it is used, and what
  // it would hide never goes into an edit (an answer keyed by an API key).
  options = { ...options, redactor: options.redactor ?? createRedactor() };
  const redactor = options.redactor!;
  const isSecret = (text: string): boolean => redactor.text(text) !== text;
  while (plan.run.length && rounds < MAX_ROUNDS) {
    rounds++;
    const round = await runPlan(model, plan, options);
    results = round.results;
    const found = { proposals: [] as Proposal[], questions: [] as OpenQuestion[] };
    const applied = new Set(edited);
    for (const r of results) {
      const f = await diagnose(r, {
        project: model,
        response: round.responses.get(r.operation),
        edited,
        applied,
        isSecret,
        tryRun: (p, id) => tryRun(p, id, options),
      });
      found.proposals.push(...f.proposals);
      found.questions.push(...f.questions);
    }
    questions = found.questions;
    if (!found.proposals.length) break;
    proposals.push(...found.proposals);
    model = withEdits(
      model,
      found.proposals.map((p) => p.edit),
    );
  }
  const observed = new Map<string, string>();
  for (const r of results) {
    const o = observedOf(project, r);
    if (r.status === 'passed' && o.status !== undefined) observed.set(r.operation, `${o.method} ${o.path} -> ${o.status}`);
  }
  return { plan, proposals, questions, results, observed, rounds };
}

function runnerOptions(project: Project, options: CalibrateOptions, responseCheck?: RunnerOptions['responseCheck']): RunnerOptions {
  return { graph: buildGraph(project), env: options.env, vars: options.vars, processEnv: options.processEnv, redactor: options.redactor, responseCheck };
}

/** One round: the plan in order; every operation's result and its full response (kept for the field search only, never shown). */
async function runPlan(project: Project, plan: CalibrationPlan, options: CalibrateOptions) {
  const responses = new Map<string, FlowResponse>();
  const runner = createRunner(project, {
    ...runnerOptions(project, options, ({ operation, response }) => {
      responses.set(operation, response);
      return undefined;
    }),
    onEvent: options.onEvent,
  });
  try {
    await runner.runMany(plan.run);
    const results = plan.order.flatMap((id) => runner.result(id) ?? []);
    return { results, responses };
  } finally {
    await runner.close();
  }
}

async function tryRun(project: Project, operation: string, options: CalibrateOptions): Promise<OperationResult> {
  const runner = createRunner(project, runnerOptions(project, options));
  try {
    return await runner.run(operation);
  } finally {
    await runner.close();
  }
}
