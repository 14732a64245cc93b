// One sequence on its own fork of the run's runner: fresh instance state (each path id comes
// from a create this sequence made, its parents and prerequisites its own), the run's logins
// shared. Every step is a probe: the drawn body and query sent as data, any status an answer.
// The steps that act on one instance name the instance this sequence created, so a check only
// ever judges what the sequence itself made; the first problem not found before ends the
// sequence as a FindingError, which fast-check then shrinks. At the end, the fork's clean-up
// deletes what the sequence (or a prerequisite it ran) created and did not delete: only that.
import { FlowError } from '../errors.js';
import type { ProbeOverrides, Runner, CleanupEntry, RunEvent } from '../runner/index.js';
import type { FlowResponse } from '../http/index.js';
import type { Operation } from '../project/index.js';
import { refersTo } from '../graph/index.js';
import type { Redactor } from '../redact/index.js';
import type { FindingStep } from '../report/index.js';
import { answerProblem, asEchoed, notPersisted, useAfterDelete, writtenFields, type ContractSchemas, type Problem, type Written } from './checks.js';
import { answerClass, type AnswerCounts } from './answers.js';

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
  /** a read of the collection: checked as any answer, not against what was written or deleted */
  list?: boolean;
}

/**
 * A fork's events, for the run's summary: its requests counted (and, given `answers`, each
 * answer by class), what its clean-up deleted counted and what it left kept.
 */
export function forkEvents(ctx: Pick<SessionContext, 'counters' | 'cleanup'>, answers?: AnswerCounts): (event: RunEvent) => void {
  return (event) => {
    if (event.type === 'cleanup') {
      ctx.cleanup.deleted += event.report.deleted.length;
      ctx.cleanup.left.push(...event.report.left);
    } else if (event.type === 'request') {
      ctx.counters.requests++;
      if (answers && event.response) answers[answerClass(event.response.status)]++;
    }
  };
}

export interface SessionContext {
  contract: ContractSchemas;
  /** what the forks' clean-ups deleted (a count) and left, with why (one for the run: said in its summary) */
  cleanup: { deleted: number; left: CleanupEntry[] };
  redactor: Redactor;
  /** `<code> <operation>` of the findings already made: seen again, they do not stop a sequence */
  known: Set<string>;
  /** `<code> <operation>` of the findings whose replay did not show them: each new sighting is counted */
  flaky: Map<string, { shown: number }>;
  deadline: number;
  /** a step's timeout: within the budget */
  timeoutMs: number;
  /** the create operations explore knows: a step of one records the instance it makes */
  creates: Set<string>;
  /** whether an operation's request schema accepts a body (undefined: no schema to ask) */
  accepts?: (op: Operation) => ((body: unknown) => boolean) | undefined;
  /** steps sent, steps that got an answer, requests (logins and prerequisites included) */
  counters: { steps: number; answered: number; requests: number };
  onStep?: () => void;
  /** set by the first write refused for its host (E_HOST_NOT_WRITABLE): every session stops, explore throws it */
  stop?: FlowError;
}

/** A problem and the operation at fault, as a replay collects them. */
export interface Seen {
  problem: Problem;
  operation: string;
}

export class Session {
  readonly steps: StepRecord[] = [];
  /** what the last create or update of the instance wrote, and which operation wrote it */
  written: { fields: Written; by: string } | undefined;
  deletedBy: string | undefined;
  /** a step got an answer other than 401 or 403: the sequence got past its login */
  pastLogin = false;
  /** the instance (its place in the fork's state, from 1) that this sequence's last create made */
  private current: number | undefined;

  /**
   * `runner`: this sequence's fork (closed with the session). `seen`: a replay's, which
   * collects every problem instead of stopping at the first.
   */
  constructor(
    private readonly ctx: SessionContext,
    private readonly runner: Runner,
    private readonly seen?: Seen[],
  ) {}

  get expired(): boolean {
    return Date.now() >= this.ctx.deadline;
  }

  /** Probe one step; its answer, or undefined when none came, it was not sent, or the budget is spent. */
  async step(op: Operation, role: StepRecord['role'], body?: unknown, query?: Record<string, unknown>, list = false): Promise<FlowResponse | undefined> {
    if (this.expired || this.ctx.stop) return undefined;
    const invalid = role === 'invalid';
    const overrides: ProbeOverrides = { timeoutMs: Math.min(op.timeoutMs ?? this.ctx.timeoutMs, this.ctx.timeoutMs), keepWritten: true };
    // the project's own body, as written, is rendered by the runner; a drawn one is data
    if (body !== undefined && body !== op.body) overrides.body = body;
    if (query) overrides.query = query;
    if (this.current !== undefined && onOwnInstance(op)) overrides.instance = this.current;
    // a create's instance is what the next steps act on; one an invalid create made is only deleted
    const creates = this.ctx.creates.has(op.id) && (role === 'create' || invalid);
    if (creates) overrides.record = true;
    const before = creates ? this.count(op.resource) : 0;
    const { result, response } = await this.runner.probe(op.id, overrides);
    // a write to a host not declared for writes: explore stops (not a finding to shrink), and says how to declare it
    if (result.error?.code === 'E_HOST_NOT_WRITABLE') {
      this.ctx.stop ??= new FlowError(result.error.code, result.error.message, { details: result.error.details });
      return undefined;
    }
    this.ctx.counters.steps++;
    this.ctx.onStep?.();
    const exchange = [...result.exchanges].reverse().find((e) => e.purpose === op.id);
    // a step that was not sent (a prerequisite failed, a value is missing) did nothing: it is not part of the sequence
    if (!exchange) return undefined;
    if (creates && !invalid && this.count(op.resource) > before) this.current = this.count(op.resource);
    const step: StepRecord = { operation: op.id, role, body, query, request: exchange.request, response: exchange.response, status: response?.status, invalid };
    if (list) step.list = true;
    this.steps.push(step);
    if (!response) return undefined;
    this.ctx.counters.answered++;
    if (response.status !== 401 && response.status !== 403) this.pastLogin = true;
    const problem = answerProblem(op, response, invalid, this.ctx.contract, (v) => this.ctx.redactor.value(v));
    // a body the server read leniently, as its answer shows, was not accepted invalid
    const lenient = problem?.code === 'E_ACCEPTS_INVALID' && this.ctx.accepts?.(op)?.(asEchoed(body, response));
    if (problem && !lenient) this.found(problem, op.id);
    return response;
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
    // only what this sequence created is judged: another's may change at any time
    if (!res || this.current === undefined) return;
    const problem = this.deletedBy
      ? useAfterDelete(op, res, this.deletedBy)
      : this.written && notPersisted(this.written.fields, this.written.by, op, res, (v) => this.ctx.redactor.value(v));
    if (problem) this.found(problem, this.deletedBy ? op.id : this.written!.by);
  }

  async list(op: Operation, query: Record<string, unknown> | undefined): Promise<void> {
    await this.step(op, 'read', undefined, query, true);
  }

  async delete(op: Operation): Promise<boolean> {
    const res = await this.step(op, 'delete');
    if (!res || res.status < 200 || res.status >= 300) return false;
    this.deletedBy = op.id;
    this.written = undefined;
    return true;
  }

  async invalid(op: Operation, body: unknown): Promise<void> {
    await this.step(op, 'invalid', body);
  }

  /**
   * The fork's clean-up (docs/format.md#ownership): every instance a create of this sequence or
   * of its prerequisites made and no DELETE removed, newest first, and every switch it flipped.
   */
  async close(): Promise<void> {
    try {
      await this.runner.cleanUp();
    } finally {
      await this.runner.close();
    }
  }

  /** How many instances of `resource` the fork's state holds. */
  private count(resource: string): number {
    let n = 0;
    while (n < 100_000 && this.runner.values(resource, n + 1)) n++;
    return n;
  }

  private found(problem: Problem, operation: string): void {
    if (this.seen) return void this.seen.push({ problem, operation });
    const key = `${problem.code} ${operation}`;
    const flaky = this.ctx.flaky.get(key);
    if (flaky) flaky.shown++;
    if (flaky || this.ctx.known.has(key)) return;
    throw new FindingError(problem, operation, [...this.steps]);
  }
}

/** Its path names an instance of its own resource (`{{item.id}}`): it acts on one. */
function onOwnInstance(op: Operation): boolean {
  return refersTo(op.path, op.resource);
}
