// The judgment of `flow explore --authz`, as pure functions of what was seen: the owner's view
// of an instance, another actor's answer (or the answer to no credentials at all), and the
// owner's next read. Only what the answers prove is a finding: a 401, 403 or 404 is a denial,
// and so is a 2xx that shows none of the owner's data (APIs that answer 200 with an empty
// body or an error object); a write by another counts only when the owner's next read shows
// the change or answers 404. What the description makes public and what the project declares
// shared (docs/format.md#sharing) is allowed by design.
import { isPlainObject, type Sharing } from '../project/index.js';
import { isSecured, type OperationSecurity } from './security.js';

export type AuthzCode = 'E_AUTHZ_OTHER_READ' | 'E_AUTHZ_OTHER_WRITE' | 'E_AUTHZ_ANONYMOUS' | 'E_AUTHZ_ROLE';

/** One answer: its status and its body as JSON (undefined when it has none, or not JSON). */
export interface Seen {
  status: number;
  body?: unknown;
}

/** What an attempt does to the instance: read it, list the collection it is in, change it, delete it. */
export type AttemptKind = 'read' | 'list' | 'update' | 'delete';

export interface Attempt {
  kind: AttemptKind;
  /** the operation tried, `<resource>.<operation>` */
  operation: string;
  resource: string;
  /** the actor whose operation created the instance */
  owner: string;
  /** the actor it was tried as; null: no credentials at all */
  other: string | null;
  security: OperationSecurity;
  shared?: Sharing[];
  /** the instance's identity as its bodies name it (`id: "n7"`): the fields its operations' paths read */
  identity: Record<string, unknown>;
  /** the owner's own view of the instance: its create's answer, or its read's */
  ownerView: Seen;
  answer: Seen;
  /** for a write: the body it sent */
  sent?: unknown;
  /** for a write: the owner's read right after it, and the operation that read */
  after?: Seen;
  afterBy?: string;
}

export type Verdict =
  | { kind: 'finding'; code: AuthzCode; message: string }
  /** the API refused it: a non-2xx, or a 2xx that shows none of the owner's data */
  | { kind: 'denied'; why: string }
  /** allowed by design: the description makes it public or credentials optional, or the project shares the resource */
  | { kind: 'allowed'; why: string }
  /** a 2xx to a write that the owner's next read does not show */
  | { kind: 'unproven'; why: string };

const is2xx = (status: number) => status >= 200 && status < 300;

/** The verdict on one actor's (or no credentials') attempt on an instance another actor created. */
export function judge(a: Attempt): Verdict {
  const who = a.other ?? 'no credentials';
  if (!is2xx(a.answer.status)) return { kind: 'denied', why: `${a.operation} answered ${a.answer.status} to ${who}` };
  const allowed = byDesign(a);
  if (allowed) return allowed;
  const proof = a.kind === 'read' || a.kind === 'list' ? readProof(a) : writeProof(a);
  if (proof.kind !== 'finding') return proof;
  if (a.other === null) {
    const needs = a.security.alternatives.map((alt) => alt.map(describeUse).join(' and ')).join(' or ');
    return { kind: 'finding', code: 'E_AUTHZ_ANONYMOUS', message: `${proof.message}; the description secures ${a.security.described} (${needs})` };
  }
  return { kind: 'finding', code: a.kind === 'read' || a.kind === 'list' ? 'E_AUTHZ_OTHER_READ' : 'E_AUTHZ_OTHER_WRITE', message: proof.message };
}

/**
 * Allowed whatever the answer, by what the description or the project says: a public
 * operation; with no credentials, one whose credentials are optional or that the description
 * does not secure; another actor the resource is shared with. Such an attempt need not be sent.
 */
export function byDesign(a: Pick<Attempt, 'kind' | 'operation' | 'resource' | 'other' | 'security' | 'shared'>): Verdict | undefined {
  if (a.security.public) return { kind: 'allowed', why: `the description makes ${a.security.described ?? a.operation} public (security: [])` };
  if (a.other === null) {
    if (a.security.optional) return { kind: 'allowed', why: `the description makes credentials optional for ${a.security.described}` };
    if (!isSecured(a.security)) return { kind: 'allowed', why: `the description does not secure ${a.security.described ?? a.operation}` };
  } else if (sharedWith(a.shared, a.other, a.kind === 'read' || a.kind === 'list')) {
    const writes = sharedWith(a.shared, a.other, false);
    return { kind: 'allowed', why: `${a.resource} is shared with ${a.other}${writes ? '' : ' to read'}` };
  }
  return undefined;
}

function readProof(a: Attempt): { kind: 'finding'; message: string } | Verdict {
  const who = a.other ?? 'a request with no credentials';
  const whose = `${a.owner}'s ${a.resource}`;
  if (a.kind === 'list') {
    if (!holds(a.answer.body, a.identity, {}))
      return { kind: 'denied', why: `${a.operation} answered ${a.answer.status}, and the list holds none of ${whose}` };
    return { kind: 'finding', message: `${who} listed ${whose}: ${a.operation} answered ${a.answer.status} with it (${pairs(a.identity)})` };
  }
  if (!holds(a.answer.body, a.identity, distinctive(a.ownerView.body))) {
    return { kind: 'denied', why: `${a.operation} answered ${a.answer.status}, showing none of ${whose}` };
  }
  return { kind: 'finding', message: `${who} read ${whose} (${pairs(a.identity)}): ${a.operation} answered ${a.answer.status} with its data` };
}

function writeProof(a: Attempt): { kind: 'finding'; message: string } | Verdict {
  const who = a.other ?? 'a request with no credentials';
  const did = `${who} ${a.kind === 'delete' ? 'deleted' : 'changed'} ${a.owner}'s ${a.resource} (${pairs(a.identity)}): ${a.operation} answered ${a.answer.status}`;
  if (!a.after) {
    // nothing reads the instance back: only a request with no credentials is judged on its 2xx
    if (a.other === null) return { kind: 'finding', message: did };
    return { kind: 'unproven', why: `${a.operation} answered ${a.answer.status}, and no read of ${a.resource} can show whether it did anything` };
  }
  const by = a.afterBy ?? `${a.owner}'s read`;
  if (a.after.status === 404 || a.after.status === 410)
    return { kind: 'finding', message: `${did}, and ${a.owner}'s next read (${by}) answered ${a.after.status}` };
  if (a.kind === 'update' && is2xx(a.after.status)) {
    const shown = changes(a.sent, a.ownerView.body, a.after.body);
    if (shown.length) return { kind: 'finding', message: `${did}, and ${a.owner}'s next read (${by}) shows ${shown.join(', ')}` };
  }
  return { kind: 'unproven', why: `${a.operation} answered ${a.answer.status}, and ${a.owner}'s next read (${by}, ${a.after.status}) shows no change` };
}

export interface RoleAttempt {
  operation: string;
  /** the actor the project runs it as, and its answer */
  owner: string;
  ownerView: Seen;
  other: string;
  answer: Seen;
  /** what it needs that the other actors' operations never do (security.ts roleRequirement) */
  requirement: string;
}

/** A role's operation tried as another actor: a 2xx is E_AUTHZ_ROLE, unless its body shows none of what the role's own answer showed. */
export function judgeRole(r: RoleAttempt): Verdict {
  if (!is2xx(r.answer.status)) return { kind: 'denied', why: `${r.operation} answered ${r.answer.status} to ${r.other}` };
  const data = distinctive(r.ownerView.body);
  if (Object.keys(data).length && !holds(r.answer.body, {}, data)) {
    return { kind: 'denied', why: `${r.operation} answered ${r.answer.status} to ${r.other}, showing none of what it shows ${r.owner}` };
  }
  return {
    kind: 'finding',
    code: 'E_AUTHZ_ROLE',
    message: `${r.other} got ${r.answer.status} from ${r.operation}, which needs ${r.requirement} (the project runs it as ${r.owner})`,
  };
}

/**
 * A role's write tried as another actor, on an instance of the run's own: a change another
 * actor's write would be E_AUTHZ_OTHER_WRITE for is E_AUTHZ_ROLE, with what it needs; the rest
 * as judged (a request with no credentials stays E_AUTHZ_ANONYMOUS).
 */
export function asRole(v: Verdict, operation: string, requirement: string, roleActor: string): Verdict {
  if (v.kind !== 'finding' || v.code !== 'E_AUTHZ_OTHER_WRITE') return v;
  return { kind: 'finding', code: 'E_AUTHZ_ROLE', message: `${v.message}; ${operation} needs ${requirement} (the project runs it as ${roleActor})` };
}

/**
 * A create sent with no credentials to an operation the description secures: E_AUTHZ_ANONYMOUS
 * when it answered 2xx and made an instance (`made`: what the create extracts came back), a
 * denial otherwise.
 */
export function judgeAnonymousCreate(c: {
  operation: string;
  resource: string;
  security: OperationSecurity;
  answer: Seen;
  made: Record<string, unknown>;
}): Verdict {
  if (!is2xx(c.answer.status)) return { kind: 'denied', why: `${c.operation} answered ${c.answer.status} to no credentials` };
  if (!isSecured(c.security)) return { kind: 'allowed', why: `the description does not demand credentials for ${c.security.described ?? c.operation}` };
  if (!Object.keys(c.made).length) return { kind: 'denied', why: `${c.operation} answered ${c.answer.status}, and made no ${c.resource}` };
  const needs = c.security.alternatives.map((alt) => alt.map(describeUse).join(' and ')).join(' or ');
  return {
    kind: 'finding',
    code: 'E_AUTHZ_ANONYMOUS',
    message: `a request with no credentials created a ${c.resource} (${pairs(c.made)}): ${c.operation} answered ${c.answer.status}; the description secures ${c.security.described} (${needs})`,
  };
}

/** Whether `other` may do it by the resource's declaration: a grant to it (to every actor when `with` is left out), to read or to write. */
export function sharedWith(shared: readonly Sharing[] | undefined, other: string, reading: boolean): boolean {
  return (shared ?? []).some((g) => (!g.with || g.with.includes(other)) && (reading || g.access === 'write'));
}

const MAX_NODES = 10_000;
const MAX_DEPTH = 16;

/**
 * Whether some object in `body` shows the owner's instance: one of its identity fields with
 * the same value, or one of the other distinctive fields of the owner's view. Walked without
 * recursion, bounded: a body is the server's.
 */
function holds(body: unknown, identity: Record<string, unknown>, data: Record<string, unknown>): boolean {
  const wanted = [...Object.entries(identity), ...Object.entries(data)];
  if (!wanted.length) return false;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: body, depth: 0 }];
  for (let seen = 0; stack.length && seen < MAX_NODES; seen++) {
    const { v, depth } = stack.pop()!;
    if (depth > MAX_DEPTH || v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v) && wanted.some(([k, want]) => k in v && same((v as Record<string, unknown>)[k], want))) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}

/** The owner's view's top-level fields whose values would not show by chance: text of 3 characters or more, numbers other than 0 and 1. */
function distinctive(body: unknown): Record<string, unknown> {
  const view = entity(body);
  if (!view) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(view)) {
    if ((typeof v === 'string' && v.length >= 3) || (typeof v === 'number' && v !== 0 && v !== 1)) out[k] = v;
  }
  return out;
}

/** The fields `sent` set to a new value that `after` shows: `title "x" (was "y")`. */
function changes(sent: unknown, before: unknown, after: unknown): string[] {
  const shown = entity(after);
  if (!isPlainObject(sent) || !shown) return [];
  const keys = Object.keys(sent);
  const [was, now] = [wrapped(entity(before) ?? {}, keys), wrapped(shown, keys)];
  const out: string[] = [];
  for (const [k, v] of Object.entries(sent)) {
    if (v === null || typeof v === 'object' || !(k in now) || !same(now[k], v) || same(was[k], v)) continue;
    out.push(`${k} ${JSON.stringify(v)}${k in was ? ` (was ${JSON.stringify(was[k])})` : ''}`);
  }
  return out;
}

/**
 * The object that holds the sent fields: the view itself, or, when it has none of them, its one
 * object-valued field (`{"version": 1, "tagType": {…}}`).
 */
function wrapped(view: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  if (keys.some((k) => k in view)) return view;
  const inner = Object.values(view).filter(isPlainObject);
  return inner.length === 1 ? inner[0] : view;
}

function entity(body: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(body)) return undefined;
  return Object.keys(body).length === 1 && isPlainObject(body.data) ? body.data : body;
}

/** Equal as JSON scalars; a number and its text are one id (`7` in a path is "7" in a body). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return (typeof a === 'number' && typeof b === 'string') || (typeof a === 'string' && typeof b === 'number') ? String(a) === String(b) : false;
}

function pairs(identity: Record<string, unknown>): string {
  return Object.entries(identity)
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(', ');
}

function describeUse(use: { scheme: string; scopes: string[] }): string {
  return use.scopes.length ? `${use.scheme} with ${use.scopes.join(', ')}` : use.scheme;
}
