// One sequence on its own runner: a fresh state, so that each path id comes from a create this
// sequence made (through the graph: parents and logins first, as `flow run` does). Each step
// sets its body on the explore model, runs the operation, and the answer is checked; the
// first problem not found before ends the sequence as a FindingError, which fast-check then
// shrinks. At the end, what the sequence created and did not delete is deleted: only that.
import { createRunner, type Runner, type RunnerOptions } from '../runner/index.js';
import type { FlowResponse } from '../http/index.js';
import { extractAll } from '../runtime/index.js';
import { type Operation, scalarText } from '../project/index.js';
import type { Redactor } from '../redact/index.js';
import type { FindingStep } from '../report/index.js';
import { answerProblem, notPersisted, useAfterDelete, writtenFields, type ContractSchemas, type Problem, type Written } from './checks.js';
import type { ExploreModel } from './model.js';

/** Thrown by a step whose answer shows a problem: fast-check shrinks the sequence that led to it. */
export class FindingError extends Error {
  readonly code = 'E_FINDING';
  constructor(
    readonly problem: Problem,
    /** the operation at fault */
    readonly operation: string,
    readonly steps: StepRecord[],
  ) {
    super(`${problem.code} ${operation}`);
  }
}

export interface StepRecord extends FindingStep {
  /** the status observed, absent when no answer came */
  status?: number;
  invalid: boolean;
}

export interface SessionContext {
  model: ExploreModel;
  contract: ContractSchemas;
  redactor: Redactor;
  /** the model's graph (built once: a step changes bodies and queries, never which references there are) */
  runnerOptions: Pick<RunnerOptions, 'env' | 'vars' | 'processEnv' | 'graph' | 'random'>;
  /** `<code> <operation>` of the findings already made: seen again, they do not stop a sequence */
  known: Set<string>;
  deadline: number;
  /** the create operations explore knows, and each resource's delete: the clean-up deletes what they made */
  creates: Set<string>;
  deletes: Map<string, Operation>;
  /** steps sent, steps that got an answer, requests (logins and prerequisites included) */
  counters: { steps: number; answered: number; requests: number };
  onStep?: () => void;
}

export class Session {
  readonly steps: StepRecord[] = [];
  /** what the last create or update of the instance wrote, and which operation wrote it */
  written: { fields: Written; by: string } | undefined;
  deletedBy: string | undefined;
  private readonly runner: Runner;
  private readonly answers = new Map<string, FlowResponse>();
  /** the instances the creates of this sequence made, oldest first: the resource, and the instance's place in the runner's state (from 1) */
  private readonly created: Array<{ resource: string; index: number }> = [];
  private readonly made = new Map<string, number>();
  /** what an invalid create made (accepted when it should not have been): not in the runner's state, its values read from the answer */
  private readonly strays: Array<{ resource: string; values: Record<string, unknown> }> = [];

  constructor(private readonly ctx: SessionContext) {
    this.runner = createRunner(ctx.model.project, {
      ...ctx.runnerOptions,
      redactor: ctx.redactor,
      responseCheck: ({ operation, response }) => {
        this.answers.set(operation, response);
        return undefined;
      },
      onEvent: (event) => {
        if (event.type === 'request') ctx.counters.requests++;
        else if (event.type === 'operation:end' && event.result.status === 'passed') this.noteCreated(event.result.operation);
      },
    });
  }

  get expired(): boolean {
    return Date.now() >= this.ctx.deadline;
  }

  /** Run one step; its answer, or undefined when none came or the budget is spent. */
  async step(op: Operation, role: StepRecord['role'], body?: unknown, query?: Record<string, unknown>): Promise<FlowResponse | undefined> {
    if (this.expired) return undefined;
    const invalid = role === 'invalid';
    const sent = this.ctx.model.step(op.id, invalid);
    if (body !== undefined) sent.body = body as Operation['body'];
    // the project's own values, then the drawn ones (which leave out what it writes with a {{…}})
    sent.queryParams = query ? { ...op.queryParams, ...(query as Operation['queryParams']) } : op.queryParams;
    this.answers.delete(sent.id);
    const result = await this.runner.run(sent.id);
    this.ctx.counters.steps++;
    this.ctx.onStep?.();
    const res = this.answers.get(sent.id);
    if (res) this.ctx.counters.answered++;
    const exchange = [...result.exchanges].reverse().find((e) => e.purpose === sent.id);
    this.steps.push({ operation: op.id, role, body, query, request: exchange?.request, response: exchange?.response, status: res?.status, invalid });
    if (!res) return undefined;
    const problem = answerProblem(op, res, invalid, this.ctx.contract, (v) => this.ctx.redactor.value(v));
    if (problem) this.found(problem, op.id);
    return res;
  }

  async write(op: Operation, role: 'create' | 'update', body: unknown): Promise<boolean> {
    const res = await this.step(op, role, body);
    if (!res || res.status < 200 || res.status >= 300) return false;
    const fields = writtenFields(body, res);
    // PATCH changes what it names; PUT and a create replace; a POST action's effect is unknown
    const merged = op.method === 'PATCH' && this.written ? new Map([...this.written.fields, ...fields]) : fields;
    this.written = op.method === 'POST' && role === 'update' ? undefined : { fields: merged, by: op.id };
    this.deletedBy = undefined;
    return true;
  }

  async read(op: Operation): Promise<void> {
    const res = await this.step(op, 'read');
    if (!res) return;
    const problem = this.deletedBy ? useAfterDelete(op, res, this.deletedBy) : this.written && notPersisted(this.written.fields, this.written.by, op, res);
    if (problem) this.found(problem, this.deletedBy ? op.id : this.written!.by);
  }

  async delete(op: Operation): Promise<boolean> {
    const res = await this.step(op, 'delete');
    if (!res || res.status < 200 || res.status >= 300) return false;
    this.deletedBy = op.id;
    this.written = undefined;
    // the delete acted on the newest instance
    const at = this.created.map((c) => c.resource).lastIndexOf(op.resource);
    if (at >= 0) this.created.splice(at, 1);
    return true;
  }

  async invalid(op: Operation, body: unknown): Promise<void> {
    try {
      await this.step(op, 'invalid', body);
    } finally {
      // an accepted invalid create made something: note it for the clean-up, finding or not
      const res = this.answers.get(this.ctx.model.step(op.id, true).id);
      if (res && res.status >= 200 && res.status < 300 && this.ctx.creates.has(op.id)) {
        this.strays.push({ resource: op.resource, values: extractAll(op.extract, res).values });
      }
    }
  }

  /**
   * Delete what this sequence created and did not delete, newest first, each by its place in
   * the runner's state (`{{item[2].id}}`: a sequence may create two); then close the runner.
   */
  async close(): Promise<void> {
    // the instance's own values written into the path; one the path needs and they lack: not deleted
    const named = (resource: string, values: Record<string, unknown> | undefined) => (path: string) =>
      path.replace(new RegExp(`\\{\\{\\s*${resource}\\.([\\w$-]+)\\s*\\}\\}`, 'g'), (ref, field: string) =>
        values?.[field] === undefined || typeof values[field] === 'object' ? ref : encodeURIComponent(scalarText(values[field])),
      );
    try {
      for (const { resource, values } of this.strays) await this.cleanUp(resource, named(resource, values));
      for (const { resource, index } of [...this.created].reverse()) await this.cleanUp(resource, named(resource, this.runner.values(resource, index)));
    } finally {
      await this.runner.close();
    }
  }

  /** Run the resource's delete (its clean-up twin) with its path naming one instance. */
  private async cleanUp(resource: string, name: (path: string) => string): Promise<void> {
    const del = this.ctx.deletes.get(resource);
    if (!del || Date.now() >= this.ctx.deadline + 5000) return;
    const path = name(del.path);
    if (path.includes(`{{${resource}.`)) return;
    const twin = this.ctx.model.cleanup(del.id);
    twin.path = path;
    await this.runner.run(twin.id);
  }

  private noteCreated(operation: string): void {
    const resource = this.ctx.creates.has(operation) && this.ctx.model.project.operations.get(operation)?.resource;
    if (!resource) return;
    // each create that passed started a new instance in the runner's state (DESIGN, "State")
    const index = (this.made.get(resource) ?? 0) + 1;
    this.made.set(resource, index);
    if (this.ctx.deletes.has(resource)) this.created.push({ resource, index });
  }

  private found(problem: Problem, operation: string): void {
    if (this.ctx.known.has(`${problem.code} ${operation}`)) return;
    throw new FindingError(problem, operation, [...this.steps]);
  }
}
