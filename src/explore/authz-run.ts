// `flow explore --authz`: each instance one actor creates is tried by every other actor and
// with no credentials, through forks of one runner (one HTTP pool, each actor logged in once):
// a fork's owner creates the instance, reads it, then the other actor reads it, lists its
// collection, changes it or deletes it (a probe as that actor), and the owner reads it again.
// Reads and lists share one fork per resource; each write has a fork, and a fresh instance, of
// its own. An operation that only one actor runs and that the description scopes to a role is
// tried as every other actor: a collection read as is, a write only on the fork's own instance.
// authz.ts judges; a finding is re-proven in a fresh fork and reported at once. What the
// project shares or the description makes public is not sent at all (a role's write is, shared
// or not). Each fork cleans up what it made.
import type { FlowResponse } from '../http/index.js';
import { escapeRegExp, type Operation, type Project } from '../project/index.js';
import type { CleanupEntry, ProbeResult, Runner } from '../runner/index.js';
import type { FindingStep } from '../report/index.js';
import { asRole, byDesign, judge, judgeAnonymousCreate, judgeRole, type Attempt, type AttemptKind, type Seen, type Verdict } from './authz.js';
import { jsonOf, type ContractSchemas } from './checks.js';
import type { ExploreFinding } from './replay.js';
import { isSecured, operationSecurity, roleRequirement, securityCounts, type OperationSecurity } from './security.js';
import { forkEvents, type StepRecord } from './session.js';
import type { ResourceTargets } from './targets.js';

export interface AuthzContext {
  project: Project;
  /** the run's runner: every attempt goes through a fork of it */
  runner: Runner;
  contract: ContractSchemas;
  deadline: number;
  seed: number;
  timeoutMs: number;
  /** `<code> <operation>` already found: not reported twice */
  known: Set<string>;
  counters: { steps: number; answered: number; requests: number };
  /** what the forks' clean-ups deleted and left */
  cleanup: { deleted: number; left: CleanupEntry[] };
  /** cross-actor attempts sent, by `<owner> -> <other>` (`no credentials` for none) */
  attempts: Map<string, AttemptCount>;
  onStep?: () => void;
  /** each finding, once re-proven, as it is made */
  onFinding: (f: ExploreFinding) => Promise<void>;
}

/** Per pair: the attempts sent, and how many the API refused (a non-2xx, or a 2xx showing none of the owner's data). */
export interface AttemptCount {
  sent: number;
  refused: number;
}

interface Planned {
  kind: AttemptKind;
  op: Operation;
  other: string | null;
  /** a role's write (security.ts roleRequirement): what it needs; tried whatever the sharing, reported as E_AUTHZ_ROLE */
  role?: string;
}

const NOBODY = 'no credentials';
const MUTATES = new Set<AttemptKind>(['update', 'delete']);

/**
 * The pass `flow explore --authz` makes before its sequences, on the same deadline and through
 * forks of the run's runner. The attempts sent, and refused, by pair.
 */
export async function crossActorPass(
  project: Project,
  runner: Runner,
  ctx: Omit<AuthzContext, 'project' | 'runner' | 'attempts' | 'onFinding'>,
  targets: ResourceTargets[],
  onFinding: (f: ExploreFinding) => Promise<void>,
): Promise<Record<string, AttemptCount>> {
  if (project.actors.size < 2) return {};
  const attempts = new Map<string, AttemptCount>();
  await authzPass({ ...ctx, project, runner, attempts, onFinding }, targets);
  return Object.fromEntries(attempts);
}

/** Every cross-actor attempt on the targets' instances, then the roles' operations; each finding reported once re-proven, as it is made. */
async function authzPass(ctx: AuthzContext, targets: ResourceTargets[]): Promise<void> {
  const security = new Map<string, OperationSecurity>();
  const securityOf = (op: Operation) => {
    if (!security.has(op.id)) security.set(op.id, operationSecurity(ctx.contract.description, op));
    return security.get(op.id)!;
  };
  const roleOf = roles(ctx, securityOf);
  for (const t of targets) {
    const owner = t.create?.actor;
    if (!t.create || owner === undefined) continue;
    const planned = plan(ctx.project, t, owner, roleOf).filter((p) => !byDesign(attemptOf(ctx, t, owner, p, securityOf(p.op))));
    const groups = [planned.filter((p) => !MUTATES.has(p.kind)), ...planned.filter((p) => MUTATES.has(p.kind)).map((p) => [p])];
    for (const group of groups) {
      if (!group.length || expired(ctx)) continue;
      const tried = await runInstance(ctx, t, owner, group, securityOf);
      // the owner's create failed: every other fork of this resource would fail the same way
      if (!tried.created) break;
      for (const f of tried.found) {
        if (ctx.known.has(`${f.code} ${f.operation}`)) continue;
        // re-proven: a fresh fork, a fresh instance, the one attempt again
        const again = await runInstance(ctx, t, owner, [f.planned], securityOf);
        if (!again.found.some((g) => g.code === f.code)) continue;
        await report(ctx, f.code, f.operation, f.finding);
      }
    }
  }
  for (const t of targets) {
    if (!t.create || t.create.actor === undefined || expired(ctx) || ctx.known.has(`E_AUTHZ_ANONYMOUS ${t.create.id}`)) continue;
    const finding = await anonymousCreate(ctx, t, securityOf(t.create));
    if (!finding || !(await anonymousCreate(ctx, t, securityOf(t.create)))) continue;
    await report(ctx, 'E_AUTHZ_ANONYMOUS', t.create.id, finding);
  }
  await rolePass(ctx, targets, roleOf);
}

/**
 * What makes an operation a role's (security.ts roleRequirement), by operation: one actor runs
 * it, and its security needs what no operation of another actor needs. Undefined: anyone's.
 */
function roles(ctx: AuthzContext, securityOf: (op: Operation) => OperationSecurity): (op: Operation) => string | undefined {
  const counts = securityCounts(ctx.contract.description);
  const ops = [...ctx.project.operations.values()];
  const found = new Map<string, string | undefined>();
  return (op) => {
    if (op.actor === undefined) return undefined;
    if (!found.has(op.id)) {
      const others = ops.filter((o) => o.actor !== undefined && o.actor !== op.actor).map(securityOf);
      found.set(op.id, roleRequirement(securityOf(op), others, counts));
    }
    return found.get(op.id);
  };
}

/** One attempt of a pair sent; `verdict`: what its answer was judged (none: no answer). */
function tally(ctx: AuthzContext, pair: string, verdict?: Verdict): void {
  const count = ctx.attempts.get(pair) ?? { sent: 0, refused: 0 };
  count.sent++;
  if (verdict?.kind === 'denied') count.refused++;
  ctx.attempts.set(pair, count);
}

/** A finding re-proven: known from now on (not reported twice), and reported at once. */
async function report(ctx: AuthzContext, code: string, operation: string, finding: ExploreFinding): Promise<void> {
  ctx.known.add(`${code} ${operation}`);
  await ctx.onFinding(finding);
}

/** The create sent with no credentials, in a fork of its own; what it made is deleted as the owner would. */
async function anonymousCreate(ctx: AuthzContext, t: ResourceTargets, security: OperationSecurity): Promise<ExploreFinding | undefined> {
  const create = t.create!;
  if (!isSecured(security)) return undefined;
  const fork = ctx.runner.fork({ onEvent: forkEvents(ctx) });
  let made: Record<string, unknown> = {};
  try {
    const tried = await probe(ctx, fork, create, { actor: null }, true);
    const pair = `${create.actor} -> ${NOBODY}`;
    if (!tried.seen) return void tally(ctx, pair);
    made = identityOf(t, fork.values(t.resource) ?? {});
    const verdict = judgeAnonymousCreate({ operation: create.id, resource: t.resource, security, answer: tried.seen, made });
    tally(ctx, pair, verdict);
    return verdict.kind === 'finding' ? findingOf(ctx, verdict, create.id, [tried.step(null)]) : undefined;
  } finally {
    if (Object.keys(made).length) await fork.cleanUp();
    await fork.close();
  }
}

/**
 * What each other actor (and no credentials) tries on one of the owner's instances: read, list,
 * every write, delete. A role's write (or delete) is tried as every actor but the role's, the
 * owner too: the instance is the run's own, what the write needs is the role.
 */
function plan(project: Project, t: ResourceTargets, owner: string, roleOf: (op: Operation) => string | undefined): Planned[] {
  const out: Planned[] = [];
  const ops: Array<[AttemptKind, Operation | undefined]> = [
    ['read', t.read],
    ...t.lists.map((op) => ['list', op] as [AttemptKind, Operation]),
    ...t.writes.map((op) => ['update', op] as [AttemptKind, Operation]),
    ['delete', t.delete],
  ];
  for (const other of [...project.actors.keys(), null]) {
    for (const [kind, op] of ops) {
      if (!op) continue;
      const role = MUTATES.has(kind) && other !== null ? roleOf(op) : undefined;
      // an operation the project itself runs as that actor (or with none): the project says it may
      if (op.actor === (other ?? undefined) || (other === owner && !role)) continue;
      out.push(role ? { kind, op, other, role } : { kind, op, other });
    }
  }
  return out;
}

function attemptOf(ctx: AuthzContext, t: ResourceTargets, owner: string, p: Planned, security: OperationSecurity): Attempt {
  const blank: Seen = { status: 0 };
  return {
    kind: p.kind,
    operation: p.op.id,
    resource: t.resource,
    owner,
    other: p.other,
    security,
    shared: ctx.project.resources.get(t.resource)?.shared,
    identity: {},
    ownerView: blank,
    answer: blank,
  };
}

interface Found {
  code: string;
  operation: string;
  planned: Planned;
  finding: ExploreFinding;
}

/** One fork: the owner creates an instance and reads it; each planned attempt, then (for a write) the owner's read. */
async function runInstance(
  ctx: AuthzContext,
  t: ResourceTargets,
  owner: string,
  group: Planned[],
  securityOf: (op: Operation) => OperationSecurity,
): Promise<{ created: boolean; found: Found[] }> {
  const fork = ctx.runner.fork({ onEvent: forkEvents(ctx) });
  const found: Found[] = [];
  let gone = false;
  try {
    const created = await probe(ctx, fork, t.create!, {}, true);
    if (!created.seen || created.seen.status < 200 || created.seen.status >= 300 || !fork.values(t.resource)) return { created: false, found };
    const identity = identityOf(t, fork.values(t.resource)!);
    // recorded: the read then stands as run, so the clean-up's delete does not send it again as its prerequisite
    const view = t.read ? await probe(ctx, fork, t.read, {}, true) : created;
    for (const p of group) {
      if (expired(ctx)) break;
      const tried = await probe(ctx, fork, p.op, { actor: p.other });
      // a role's write counts for the role's actor and the one who tried it
      const pair = `${p.role ? p.op.actor : owner} -> ${p.other ?? NOBODY}`;
      if (!tried.seen) {
        tally(ctx, pair);
        continue;
      }
      const after = MUTATES.has(p.kind) && t.read ? await probe(ctx, fork, t.read) : undefined;
      const judged: Verdict = judge({
        ...attemptOf(ctx, t, owner, p, securityOf(p.op)),
        identity,
        ownerView: view.seen ?? created.seen,
        answer: tried.seen,
        sent: tried.sent,
        after: after?.seen,
        afterBy: t.read?.id,
      });
      const verdict = p.role ? asRole(judged, p.op.id, p.role, p.op.actor!) : judged;
      tally(ctx, pair, verdict);
      if (after?.seen && (after.seen.status === 404 || after.seen.status === 410)) gone = true;
      if (verdict.kind !== 'finding') continue;
      const steps = [created.step(owner), tried.step(p.other), ...(after ? [after.step(owner)] : [])];
      found.push({ code: verdict.code, operation: p.op.id, planned: p, finding: findingOf(ctx, verdict, p.op.id, steps) });
      if (gone) break;
    }
  } finally {
    // everything the fork made, a prerequisite's instance too (a write's own create), each with the delete that reads it
    await fork.cleanUp();
    await fork.close();
  }
  return { created: true, found };
}

/** The operations only one actor runs that the description scopes to a role, each tried as every other actor. */
async function rolePass(ctx: AuthzContext, targets: ResourceTargets[], roleOf: (op: Operation) => string | undefined): Promise<void> {
  // sent without an instance, changing nothing: the collection reads (a role's writes are tried on instances, runInstance)
  for (const op of targets.flatMap((t) => t.lists)) {
    const owner = op.actor;
    if (owner === undefined || expired(ctx)) continue;
    const requirement = roleOf(op);
    if (!requirement) continue;
    for (const other of ctx.project.actors.keys()) {
      if (other === owner || ctx.known.has(`E_AUTHZ_ROLE ${op.id}`) || expired(ctx)) continue;
      const tryIt = async () => {
        const fork = ctx.runner.fork({ onEvent: forkEvents(ctx) });
        try {
          const mine = await probe(ctx, fork, op);
          const theirs = await probe(ctx, fork, op, { actor: other });
          const pair = `${owner} -> ${other}`;
          if (!mine.seen || !theirs.seen) return void tally(ctx, pair);
          const verdict = judgeRole({ operation: op.id, owner, ownerView: mine.seen, other, answer: theirs.seen, requirement });
          tally(ctx, pair, verdict);
          return verdict.kind === 'finding' ? findingOf(ctx, verdict, op.id, [mine.step(owner), theirs.step(other)]) : undefined;
        } finally {
          await fork.close();
        }
      };
      const finding = await tryIt();
      if (finding && (await tryIt())) await report(ctx, 'E_AUTHZ_ROLE', op.id, finding);
    }
  }
}

interface Probed {
  seen?: Seen;
  /** the body sent, as JSON (what a write set) */
  sent?: unknown;
  step(actor: string | null): StepRecord;
}

async function probe(ctx: AuthzContext, fork: Runner, op: Operation, over: { actor?: string | null } = {}, record = false): Promise<Probed> {
  const { result, response }: ProbeResult = await fork.probe(op.id, { ...over, record, timeoutMs: ctx.timeoutMs });
  ctx.counters.steps++;
  if (response) ctx.counters.answered++;
  ctx.onStep?.();
  const exchange = [...result.exchanges].reverse().find((e) => e.purpose === op.id);
  const role: FindingStep['role'] = op.method === 'GET' ? 'read' : op.method === 'DELETE' ? 'delete' : record ? 'create' : 'update';
  return {
    seen: response ? seenOf(response) : undefined,
    sent: parsed(exchange?.request.body),
    // the body as the project writes it: the replay sends it again as written
    step: (actor) => ({
      operation: op.id,
      role,
      actor,
      body: op.raw.body,
      request: exchange?.request,
      response: exchange?.response,
      status: response?.status,
      invalid: false,
    }),
  };
}

function seenOf(res: FlowResponse): Seen {
  return { status: res.status, body: jsonOf(res) };
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The instance as its bodies name it: each value the create extracts that an operation's path
 * reads (`{{note.id}}`), under the body key its extraction reads (`$.data.id` -> `id`).
 */
function identityOf(t: ResourceTargets, values: Record<string, unknown>): Record<string, unknown> {
  const paths = [t.read, t.delete, ...t.writes].map((op) => op?.path ?? '').join(' ');
  const out: Record<string, unknown> = {};
  for (const e of t.create?.extract ?? []) {
    const read = new RegExp(`\\{\\{\\s*${escapeRegExp(t.resource)}\\.${escapeRegExp(e.name)}\\s*\\}\\}`);
    if (!read.test(paths) || values[e.name] === undefined) continue;
    const key = e.source === 'jsonpath' ? /\.([A-Za-z_$][\w$-]*)$/.exec(e.path)?.[1] : undefined;
    out[key ?? e.name] = values[e.name];
  }
  return out;
}

function findingOf(ctx: AuthzContext, verdict: Extract<Verdict, { kind: 'finding' }>, operation: string, steps: StepRecord[]): ExploreFinding {
  return { code: verdict.code, operation, message: verdict.message, steps, problem: { code: verdict.code, message: verdict.message }, seed: ctx.seed };
}

function expired(ctx: AuthzContext): boolean {
  return Date.now() >= ctx.deadline;
}
