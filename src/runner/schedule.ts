// Prerequisites (docs/format.md#run-prerequisites): running X first runs what X needs, each at most
// once per runner and reused, unless it has `force: true`; concurrent requests for one
// prerequisite share one in-flight run; independent branches run at once up to `concurrency`.
// X itself always runs when asked for (once per request, even if it ran as a prerequisite).
// An indexed reference past the first instance (`{{item[-2].id}}`) runs the create again (more-instances.ts).
// A result is not changed once emitted: a reuse makes a new one (with the new dependent).
import { FlowError, hasCode, withLoc } from '../errors.js';
import { type Loc, type Operation, scalarText } from '../project/index.js';
import type { OperationResult, ProbeOverrides, ProbeResult } from './types.js';
import type { RunContext, Trace } from './context.js';
import { executeOnce, type OnceResult } from './execute.js';
import { forEach } from './loops.js';
import { probeOnce, type ProbeOutcome } from './probe.js';
import { emptyList } from './empty-list.js';
import { lacking, MAX_MADE_INDEX, moreNeeded, type MoreNeeded } from './more-instances.js';
import { errorRecord } from './records.js';
import { unsetNames, needsVars } from './unset-vars.js';
import { scheduleOrder } from '../graph/index.js';

/** Refusals decided before a request is sent (ownership holds them back): the operation is skipped, not failed. */
export const NOT_SENT: ReadonlySet<string> = new Set(['E_NOT_OWNED', 'E_SWITCH_NOT_NAMED']);

function notSent(err: unknown): boolean {
  return hasCode(err) && NOT_SENT.has(err.code);
}

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

interface Memo {
  generation: number;
  promise: Promise<OperationResult>;
}

export class Scheduler {
  private readonly memo = new Map<string, Memo>();
  /** the latest result of every operation that ran, reuses as prerequisite included */
  private readonly latest = new Map<string, OperationResult>();
  /** the result a reuse made from each one (a result is not changed once emitted) */
  private readonly successor = new WeakMap<OperationResult, OperationResult>();
  private readonly semaphore: Semaphore;
  private generation = 0;

  constructor(private readonly ctx: RunContext) {
    this.semaphore = new Semaphore(Math.max(1, ctx.options.concurrency ?? 1));
  }

  /** The latest result of an operation that ran (as itself or as a prerequisite). */
  result(opId: string): OperationResult | undefined {
    return this.latest.get(opId);
  }

  /** `result` as its latest reuse left it (naming every dependent so far). */
  current(result: OperationResult): OperationResult {
    let r = result;
    for (let next = this.successor.get(r); next; next = this.successor.get(r)) r = next;
    return r;
  }

  /** Start a new request (a `run` or `runMany` call): what it asks for runs again. */
  nextGeneration(): number {
    return ++this.generation;
  }

  /** Run `opId` as asked for: once per generation, always fresh in a new one. */
  request(opId: string, generation: number): Promise<OperationResult> {
    const memo = this.memo.get(opId);
    if (memo && memo.generation === generation) return memo.promise;
    return this.remember(opId, generation, this.execute(opId, [], new Set([opId])));
  }

  /**
   * One at a time, in `plan` order (the schedule order `--dry-run` prints): each operation of
   * `asked` as asked for, every other one as a prerequisite. Left to themselves, prerequisites
   * would start in the order their dependents list them. A `force: true` prerequisite is left
   * to its dependents, which each run it afresh. Returns the results of `asked`, in plan order.
   */
  async runInOrder(plan: readonly string[], asked: Set<string>, generation: number): Promise<OperationResult[]> {
    const results: OperationResult[] = [];
    for (let i = 0; i < plan.length; i++) {
      const id = plan[i];
      if (asked.has(id)) results.push(await this.request(id, generation));
      else if (!this.forced(id)) await this.ensure(id, this.firstDependent(plan, i), new Set());
    }
    return results;
  }

  /** The first operation after `plan[at]` that needs it. */
  private firstDependent(plan: readonly string[], at: number): string {
    return plan.slice(at + 1).find((id) => this.depsOf(id).includes(plan[at])) ?? plan[plan.length - 1];
  }

  private remember(opId: string, generation: number, promise: Promise<OperationResult>): Promise<OperationResult> {
    this.memo.set(opId, { generation, promise });
    return promise;
  }

  /** `force: true`: never reused as a prerequisite, run afresh for each dependent (the one place this is decided). */
  private forced(opId: string): boolean {
    return this.ctx.project.operations.get(opId)?.force === true;
  }

  /** A prerequisite: reused when it already ran (or is running), unless it is forced. */
  private ensure(opId: string, dependent: string, ancestry: Set<string>): Promise<OperationResult> {
    if (ancestry.has(opId)) {
      const path = [...ancestry, opId].join(' -> ');
      return Promise.resolve(this.failure(opId, new FlowError('E_CYCLE', `circular dependency: ${path}`), [dependent]));
    }
    const run = () => this.execute(opId, [dependent], new Set([...ancestry, opId]));
    if (this.forced(opId)) return run();
    const memo = this.memo.get(opId);
    if (!memo) return this.remember(opId, this.generation, run());
    // The result already emitted stays as it was; the reuse is a new result naming the dependent too.
    memo.promise = memo.promise.then((r) => this.reused(r, dependent));
    return memo.promise;
  }

  private reused(result: OperationResult, dependent: string): OperationResult {
    if (result.prerequisiteOf.includes(dependent)) return result;
    const next = { ...result, prerequisiteOf: [...result.prerequisiteOf, dependent] };
    this.successor.set(result, next);
    if (this.latest.get(result.operation) === result) this.latest.set(result.operation, next);
    return next;
  }

  private async execute(opId: string, prerequisiteOf: string[], ancestry: Set<string>): Promise<OperationResult> {
    const op = this.ctx.project.operations.get(opId);
    if (!op) return this.failure(opId, new FlowError('E_REF_UNDEFINED', `operation "${opId}" is not defined`), prerequisiteOf);
    const unset = this.unset(opId);
    if (unset.length) return this.skipped(op, needsVars(unset), prerequisiteOf);
    const blocked = this.blocker(await Promise.all(this.depsOf(opId).map((d) => this.ensure(d, opId, ancestry)))) ?? (await this.makeMore(opId, ancestry));
    if (blocked) return this.skipped(op, blocked.reason, prerequisiteOf, blocked.by);
    await this.semaphore.acquire();
    try {
      return await this.runOperation(op, prerequisiteOf);
    } finally {
      this.semaphore.release();
    }
  }

  /**
   * A probe of `opId`: its prerequisites first (reused, as for a run), then it, once, with the
   * overrides. Recorded (`record` and an accepted answer), it stands in the memo: later
   * operations reuse it as their prerequisite.
   */
  async probe(opId: string, overrides: ProbeOverrides): Promise<ProbeResult> {
    const op = this.ctx.project.operations.get(opId);
    if (!op) return { result: this.failure(opId, new FlowError('E_REF_UNDEFINED', `operation "${opId}" is not defined`), []) };
    // with an instance given, what its own resource needs first (the create, a depends_on on a read) already made it
    const own = (d: string) => overrides.instance !== undefined && this.ctx.project.operations.get(d)?.resource === op.resource;
    const deps = this.depsOf(opId).filter((d) => !own(d));
    const blocked = this.blocker(await Promise.all(deps.map((d) => this.ensure(d, opId, new Set([opId]))))) ?? (await this.makeMore(opId, new Set([opId])));
    if (blocked) return { result: this.skipped(op, blocked.reason, [], blocked.by) };
    await this.semaphore.acquire();
    try {
      const started = performance.now();
      const trace: Trace = { operation: op.id, exchanges: [] };
      this.ctx.emit({ type: 'operation:start', operation: op.id, prerequisiteOf: [] });
      let outcome: ProbeOutcome | undefined;
      let error: unknown;
      try {
        outcome = await probeOnce(this.ctx, op, overrides, trace);
      } catch (err) {
        error = err;
      }
      const result: OperationResult = { ...this.base(op.id, op.loc, [], trace), extracted: outcome?.extracted ?? {} };
      if (!outcome) Object.assign(result, { status: 'failed', error: errorRecord(withLoc(this.explain(error), op.loc), this.ctx.redactor) });
      result.ms = Math.round(performance.now() - started);
      this.ended(result);
      if (outcome?.recorded) void this.remember(opId, this.generation, Promise.resolve(result));
      return { result, response: outcome?.response };
    } finally {
      this.semaphore.release();
    }
  }

  /** One resource's instances are made one turn at a time: two readers of `[-2]` make one more, not two. */
  private readonly making = new Map<string, Promise<unknown>>();

  /**
   * What `opId`'s indexed references need past the one instance a prerequisite made
   * (more-instances.ts): the resource's create runs afresh until there are that many.
   */
  private async makeMore(opId: string, ancestry: Set<string>): Promise<{ reason: string; by: string } | undefined> {
    for (const need of moreNeeded(this.ctx.graph, opId)) {
      if (ancestry.has(need.create)) continue;
      const turn = (this.making.get(need.resource) ?? Promise.resolve()).then(() => this.makeUntil(need, opId, ancestry));
      this.making.set(
        need.resource,
        turn.catch(() => undefined),
      );
      const blocked = await turn;
      if (blocked) return blocked;
    }
    return undefined;
  }

  private async makeUntil(need: MoreNeeded, opId: string, ancestry: Set<string>): Promise<{ reason: string; by: string } | undefined> {
    for (let runs = 0; runs < MAX_MADE_INDEX && lacking(this.ctx.state, need); runs++) {
      const before = this.ctx.state.started;
      const blocked = this.blocker([await this.execute(need.create, [opId], new Set([...ancestry, need.create]))]);
      if (blocked) return blocked;
      // it recorded nothing (an answer without the field): another run would not either
      if (this.ctx.state.started === before) break;
    }
    return undefined;
  }

  private blocker(results: OperationResult[]): { reason: string; by: string } | undefined {
    // a prerequisite that failed only its contract handed on its values: its dependents run
    const blocked = results.find((r) => r.status !== 'passed' && !r.valuesHandedOn);
    if (!blocked) return undefined;
    // a cycle (only a project that skipped lint has one) is named as such, all the way up
    const cycle = blocked.error?.code === 'E_CYCLE' ? blocked.error.message : undefined;
    const reason = blocked.status === 'skipped' && blocked.skippedBecause ? blocked.skippedBecause : (cycle ?? `prerequisite ${blocked.operation} failed`);
    return { reason, by: blocked.blockedBy ?? blocked.operation };
  }

  private readonly deps = new Map<string, string[]>();
  private readonly unsetMemo = new Map<string, string[]>();

  /** With skipUnset: the <SET_VIA_--var> variables (baseUrl aside) that `opId` and its prerequisites need and nobody gave. */
  private unset(opId: string): string[] {
    if (!this.ctx.options.skipUnset) return [];
    let list = this.unsetMemo.get(opId);
    if (!list) {
      const { project, graph, environment, vars } = this.ctx;
      list = unsetNames(project, graph, scheduleOrder(graph, [opId]), environment, vars).filter((v) => v !== 'baseUrl');
      this.unsetMemo.set(opId, list);
    }
    return list;
  }

  /** The distinct operations `opId` needs first (an operation can have several edges to one). */
  private depsOf(opId: string): string[] {
    let list = this.deps.get(opId);
    if (!list) this.deps.set(opId, (list = [...new Set(this.ctx.graph.edgesOf(opId).map((e) => e.to))]));
    return list;
  }

  private async runOperation(op: Operation, prerequisiteOf: string[]): Promise<OperationResult> {
    const started = performance.now();
    const trace: Trace = { operation: op.id, exchanges: [] };
    this.ctx.emit({ type: 'operation:start', operation: op.id, prerequisiteOf });
    let once: OnceResult | undefined;
    let failure: { error: unknown; handsOn?: boolean } | undefined;
    try {
      once = op.forEach ? await forEach(this.ctx, op, trace) : await executeOnce(this.ctx, op, trace);
      if (once.error !== undefined) failure = { error: once.error, handsOn: once.handsOn };
    } catch (err) {
      failure = { error: err };
    }
    // A failed assert keeps what was extracted and every assert record; other failures have none.
    const result: OperationResult = { ...this.base(op.id, op.loc, prerequisiteOf, trace), extracted: once?.extracted ?? {}, asserts: once?.asserts ?? [] };
    if (failure && notSent(failure.error)) {
      // refused before anything was sent (docs/format.md#ownership): a skip that says why
      result.status = 'skipped';
      result.skippedBecause = this.ctx.redactor.text((failure.error as FlowError).message);
      result.error = errorRecord(withLoc(failure.error, op.loc), this.ctx.redactor);
    } else if (failure) {
      result.status = 'failed';
      result.error = errorRecord(withLoc(this.explain(failure.error), op.loc), this.ctx.redactor);
      if (failure.handsOn) result.valuesHandedOn = true;
    }
    result.ms = Math.round(performance.now() - started);
    return this.ended(result);
  }

  /** E_VAR_UNRESOLVED gains the operations that could produce the value, and the list among them that found nothing. */
  private explain(err: unknown): unknown {
    if (!hasCode(err) || err.code !== 'E_VAR_UNRESOLVED') return err;
    const details = (err as FlowError).details ?? {};
    if (details.kind !== 'scoped') return err;
    const producers = this.ctx.graph.producers(String(details.scope), String(details.field));
    const hint = producers.length
      ? `; produced by ${producers.join(', ')}`
      : `; no operation extracts ${scalarText(details.scope)}.${scalarText(details.field)}`;
    (err as FlowError).message += hint;
    // a list that ran and found nothing: the reporters say so, calibrate tries it after a create
    const empty = emptyList(this.ctx.graph, (op) => this.latest.get(op), String(details.scope), String(details.field));
    (err as FlowError).details = { ...details, producers, ...(empty ? { emptyList: empty } : {}) };
    return err;
  }

  private base(opId: string, loc: Loc, prerequisiteOf: string[], trace?: Trace): OperationResult {
    const result: OperationResult = {
      operation: opId,
      status: 'passed',
      loc,
      prerequisiteOf,
      exchanges: trace?.exchanges ?? [],
      extracted: {},
      asserts: [],
      ms: 0,
    };
    if (trace?.hookLogs) result.hookLogs = trace.hookLogs;
    if (trace?.warnings) result.warnings = trace.warnings;
    return result;
  }

  private skipped(op: Operation, reason: string, prerequisiteOf: string[], blockedBy?: string): OperationResult {
    const result: OperationResult = { ...this.base(op.id, op.loc, prerequisiteOf), status: 'skipped', skippedBecause: reason };
    if (blockedBy) result.blockedBy = blockedBy;
    return this.ended(result);
  }

  private failure(opId: string, err: FlowError, prerequisiteOf: string[]): OperationResult {
    const loc = this.ctx.project.operations.get(opId)?.loc ?? { file: this.ctx.project.rootFile, line: 1, col: 1 };
    return this.ended({ ...this.base(opId, loc, prerequisiteOf), status: 'failed', error: errorRecord(err, this.ctx.redactor) });
  }

  private ended(result: OperationResult): OperationResult {
    this.latest.set(result.operation, result);
    this.ctx.emit({ type: 'operation:end', result });
    return result;
  }
}
