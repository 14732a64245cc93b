// Ids the answers hold under another name: a path's `{token}` that the create answers as
// `secret`, a `{name}` it answers as `tokenName`. When an id of a path is never given
// (<SET_VIA_--var>) or its link answered 404, and a create (the path's, the operation's own
// resource's, or the resource the id is named after) answered this round, a few scalar fields
// of that answer are tried, the likeliest first. Each is proven on a READ first (a GET with
// that id: nothing is written to prove a guess), and proposed only when the operation is then
// accepted with it: an extraction on the create, the reference in the path. Only field names
// go into a report; a value under a credential name is hidden by the runner once extracted.
import { randomUUID } from 'node:crypto';
import { parseTemplate, refSource } from '../graph/index.js';
import type { FlowResponse } from '../http/index.js';
import { isCredentialName, isPlainObject, type Operation, type Project } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';
import { observedOf } from './diagnose.js';
import { collection, shape } from './links.js';
import { targetOf, withEdits } from './model.js';
import { accepted, proposeSearch, searchAccepted, statusOf, type SearchContext } from './repair.js';
import type { Edit, Proposal } from './types.js';

/** Fields tried for one id, over every create: each try is a create and a read. */
const MAX_CANDIDATES = 4;
/** Creates whose answer is searched for one id. */
const MAX_PRODUCERS = 3;
/** A value that can stand in a path as it is: no space, slash, query or percent sign. */
const PATH_SAFE = /^[\w.~:@*+=!$,;-]{1,200}$/;
/** A date is a field of the instance, never its id. */
const DATE = /^\d{4}-\d\d-\d\d/;
/** Last words of a field name that name an instance. */
const ID_WORDS = new Set(['id', 'uuid', 'guid', 'key', 'slug', 'code', 'handle', 'secret', 'token', 'ref']);

interface Slot {
  /** as written: `{{env.token}}` */
  template: string;
  /** `env.token` */
  expr: string;
  /** the path's shape before it: `/api/tokens` */
  before: string;
  /** its place among the path's references */
  index: number;
  /** the path's segments after it (`/invite/{token}/validate`: 1) */
  after: number;
}

/** The GET that reads an id, and where the id is in its path. */
interface View {
  read: Operation;
  slot: Slot;
}

interface Candidate {
  producer: Operation;
  status: number;
  field: string;
  score: number;
}

/** What one calibration has tried already (its rounds share `edited`): a failed try is not sent again. */
const memos = new WeakMap<Set<string>, { tried: Set<string>; reads: Map<string, number | undefined>; loose: Map<string, boolean> }>();
/** A value no server holds, for a read that may answer 2xx to anything. */
const NOTHING = `none-${randomUUID()}`;

/** `api_token_name` -> [api, token, name]; `tokenName` -> [token, name]. */
const words = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !/^\d+$/.test(w));

function slotsOf(op: Operation): Slot[] {
  const refs = parseTemplate(op.path).flatMap((p) => (p.kind === 'ref' ? [p] : []));
  return refs.map((p, index) => {
    const after = shape(op.path.slice(p.offset + p.raw.length)).split('/').length - 1;
    return { template: p.raw, expr: refSource(p.raw), before: shape(op.path.slice(0, p.offset)), index, after };
  });
}

/** The words an id is known by: a variable's (`env.api_token_name`), or a resource's and field's (`token.id_2`). */
const idWords = (slot: Slot) => (slot.expr.startsWith('env.') ? words(slot.expr.slice(4)) : words(slot.expr));

/** How likely a field names the id: its last word is the id's, both are credentials, it is an id, a name. */
function score(field: string, id: string[]): number {
  const last = words(field).at(-1);
  if (!last) return 0;
  if (last === id.at(-1)) return 4;
  if (isCredentialName(field) && id.some((w) => isCredentialName(w))) return 3;
  if (ID_WORDS.has(last)) return 2;
  return last === 'name' ? 1 : 0;
}

const pathSafe = (v: unknown) => (typeof v === 'string' && PATH_SAFE.test(v) && !DATE.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

/** The creates whose answer may hold the slot's id, with that answer: the path's, the resource's own, the one the id is named after. */
function producersOf(project: Project, op: Operation, slot: Slot, responses: ReadonlyMap<string, FlowResponse>) {
  const posts = [...project.operations.values()].filter((p) => p.method === 'POST' && p.id !== op.id);
  const named = slot.expr.startsWith('env.') ? idWords(slot) : [slot.expr.split('.')[0]];
  const resources = [named.join('_'), named.slice(0, -1).join('_')].filter((r) => r && project.resources.has(r));
  const ordered = [
    ...posts.filter((p) => collection(p.path) === slot.before),
    ...posts.filter((p) => p.resource === op.resource),
    ...posts.filter((p) => resources.includes(p.resource)),
  ];
  const out: Array<{ producer: Operation; status: number; json: Record<string, unknown> }> = [];
  for (const producer of new Set(ordered)) {
    const r = responses.get(producer.id);
    if (!r || r.status < 200 || r.status >= 300) continue;
    let json: unknown;
    try {
      json = r.json();
    } catch {
      continue;
    }
    if (isPlainObject(json)) out.push({ producer, status: r.status, json });
    if (out.length >= MAX_PRODUCERS) break;
  }
  return out;
}

/** The fields to try for the slot, the likeliest first; not the one the path reads now. */
function candidatesOf(project: Project, op: Operation, slot: Slot, responses: ReadonlyMap<string, FlowResponse>): Candidate[] {
  const id = idWords(slot);
  const out: Candidate[] = [];
  for (const { producer, status, json } of producersOf(project, op, slot, responses)) {
    for (const [field, value] of Object.entries(json)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) || !pathSafe(value)) continue;
      // what the path reads now, under this name or another
      const now = producer.extract.find((x) => slot.expr === `${producer.resource}.${x.name}`);
      if (slot.expr === `${producer.resource}.${field}` || now?.path === `$.data.${field}`) continue;
      // another extraction of the resource by that name reads something else
      const taken = [...project.operations.values()].some(
        (o) => o.resource === producer.resource && o.extract.some((x) => x.name === field && x.path !== `$.data.${field}`),
      );
      const s = score(field, id);
      if (s > 0 && !taken) out.push({ producer, status, field, score: s });
    }
  }
  return out.sort((a, b) => b.score - a.score).slice(0, MAX_CANDIDATES);
}

/**
 * The GET that reads the slot's id: the operation itself, else one that reads the same
 * parameter (the same reference) on the same path, or on the same collection of its resource.
 * A GET of another parameter at that place (`/tokens/{name}` for `/tokens/{token}`) proves
 * nothing about this one.
 */
function readOf(project: Project, op: Operation, slot: Slot): View | undefined {
  if (op.method === 'GET') return { read: op, slot };
  const tail = (s: string) => s.split('/').at(-1);
  for (const fit of [(s: Slot) => s.before === slot.before, (s: Slot, g: Operation) => g.resource === op.resource && tail(s.before) === tail(slot.before)])
    for (const g of project.operations.values()) {
      if (g.method !== 'GET' || g.id === op.id) continue;
      const s = slotsOf(g).find((x) => x.template === slot.template && fit(x, g));
      if (s) return { read: g, slot: s };
    }
  return undefined;
}

/** Whether the read's answer holds the value its path was sent with (a value hidden as a secret cannot show it). */
function echoes(model: Project, r: OperationResult, view: View): boolean {
  const { url, excerpt } = observedOf(model, r);
  if (!url || !excerpt) return false;
  try {
    const segments = new URL(url).pathname.split('/');
    const value = decodeURIComponent(segments[segments.length - 1 - view.slot.after] ?? '');
    return value.length > 0 && !value.includes('***') && excerpt.includes(value);
  } catch {
    return false;
  }
}

/** The read over the model with this round's proposals and `extract`, its id read as `to`. */
function readWith(ctx: SearchContext, view: View, extract: Edit[], to: string, purpose: string): Promise<OperationResult> {
  const model = withEdits(ctx.project, [...ctx.pending, ...extract]);
  const from = slotsOf(model.operations.get(view.read.id)!)[view.slot.index]?.template ?? view.slot.template;
  const edits: Edit[] = from === to ? [] : [{ kind: 'path_ref', operation: view.read.id, from, to }];
  return ctx.tryRun(withEdits(model, edits), view.read.id, purpose);
}

/** The operations to try, reads first, each with the slot whose id is looked for. */
function toTry(
  model: Project,
  notRun: ReadonlyArray<{ operation: string; variables?: string[] }>,
  results: readonly OperationResult[],
  skip: ReadonlySet<string>,
) {
  const out: Array<{ op: Operation; slot: Slot; why: string }> = [];
  for (const n of notRun) {
    const op = model.operations.get(n.operation);
    if (!op || skip.has(op.id) || !n.variables?.length) continue;
    const slots = slotsOf(op).filter((s) => n.variables!.some((v) => s.expr === `env.${v}`));
    // a variable outside the path (a body's, an actor's) would still stop the try
    if (slots.length === n.variables.length) out.push(...slots.map((slot) => ({ op, slot, why: `\`${slot.template}\` was never given (<SET_VIA_--var>)` })));
  }
  const failed = results.filter((r) => r.status === 'failed' && !skip.has(r.operation));
  const missing = new Set<string>();
  for (const r of failed) {
    const slot = statusOf(r) === 404 ? slotsOf(model.operations.get(r.operation)!).at(-1) : undefined;
    if (!slot) continue;
    missing.add(slot.template);
    out.push({ op: model.operations.get(r.operation)!, slot, why: `\`${slot.template}\` answered 404` });
  }
  // an operation that reads the id a 404 showed missing fails for it too, whatever it answered first
  for (const r of failed) {
    const op = model.operations.get(r.operation)!;
    const slot = statusOf(r) === 404 ? undefined : slotsOf(op).find((s) => missing.has(s.template));
    if (slot) out.push({ op, slot, why: `\`${slot.template}\` answered 404 to another operation` });
  }
  return out.sort((a, b) => Number(b.op.method === 'GET') - Number(a.op.method === 'GET'));
}

export async function proveAliases(
  model: Project,
  notRun: ReadonlyArray<{ operation: string; variables?: string[] }>,
  results: readonly OperationResult[],
  responses: ReadonlyMap<string, FlowResponse>,
  ctx: SearchContext,
  skip: ReadonlySet<string>,
): Promise<{ proposals: Proposal[]; proven: Set<string> }> {
  const out = { proposals: [] as Proposal[], proven: new Set<string>() };
  let memo = memos.get(ctx.edited);
  if (!memo) memos.set(ctx.edited, (memo = { tried: new Set(), reads: new Map(), loose: new Map() }));
  const m = memo;
  /** Whether the read answers 2xx for a value that names nothing: then only an answer holding the value proves it. */
  const loose = async (view: View) => {
    const key = `${view.read.id} ${view.slot.index}`;
    if (!m.loose.has(key)) m.loose.set(key, accepted(await readWith(ctx, view, [], NOTHING, `try ${view.read.id} with a value that names nothing`)));
    return m.loose.get(key)!;
  };
  /** The read proves the value: accepted, and holding it where it accepts anything. */
  const proves = async (r: OperationResult, view: View) => accepted(r) && (!(await loose(view)) || echoes(model, r, view));
  // the field a read proved for an id this round: the writes on it try that one first
  const found = new Map<string, Candidate>();
  const passedReaders = new Set(
    results.filter((r) => r.status === 'passed').flatMap((r) => slotsOf(model.operations.get(r.operation)!).map((s) => s.template)),
  );
  for (const { op, slot, why } of toTry(model, notRun, results, skip)) {
    if (out.proven.has(op.id)) continue;
    const view = readOf(model, op, slot);
    if (!view) continue;
    const known = found.get(slot.template);
    const first = (c: Candidate) => Number(c.field === known?.field && c.producer === known.producer);
    const candidates = candidatesOf(model, op, slot, responses).sort((a, b) => first(b) - first(a));
    for (const c of candidates) {
      const key = `${op.id} ${slot.template} ${c.producer.id} ${c.field}`;
      if (m.tried.has(key)) continue;
      m.tried.add(key);
      const planned = editsFor(model, op, slot, c, ctx, passedReaders);
      if (!planned) continue;
      const { edits, ref } = planned;
      let said = `${why}; ${c.producer.id} answered ${c.status} with \`${c.field}\``;
      if (view.read !== op) {
        const readKey = `${view.read.id} ${view.slot.index} ${c.producer.id} ${c.field}`;
        if (!m.reads.has(readKey)) {
          const extract = edits.filter((e) => e.kind === 'extract');
          const r = await readWith(ctx, view, extract, ref, `try ${view.read.id} with ${c.producer.id}'s ${c.field}`);
          m.reads.set(readKey, (await proves(r, view)) ? (statusOf(r) ?? 200) : undefined);
        }
        const status = m.reads.get(readKey);
        if (status === undefined) continue;
        said += `, and ${view.read.id} (GET ${view.read.path.split(view.slot.template).join(ref)}) answered ${status} with it`;
      }
      const search = await searchAccepted(ctx, op.id, edits, [said]);
      const last = search.last;
      const ok = search.ok && last !== undefined && (view.read !== op || (await proves(last, view)));
      if (view.read === op) m.reads.set(`${op.id} ${slot.index} ${c.producer.id} ${c.field}`, ok && last ? (statusOf(last) ?? 200) : undefined);
      if (!ok) continue;
      found.set(slot.template, c);
      const held = view.read === op && (await loose(view)) ? ' (its answer holds it: it answers 2xx to a value that names nothing too)' : '';
      proposeSearch(out, ctx, op.id, search, observedOf(model, last), `then ${statusOf(last) ?? 'passed'} with it${held}`);
      out.proven.add(op.id);
      break;
    }
  }
  return out;
}

/**
 * The edits that make the slot read the candidate: the create's extraction of the field and the
 * path's reference to it; or, when the path reads an extraction of that create that nothing
 * which passed reads (a wrong field, often a list's `[*]`), that extraction corrected.
 */
function editsFor(
  model: Project,
  op: Operation,
  slot: Slot,
  c: Candidate,
  ctx: SearchContext,
  passedReaders: ReadonlySet<string>,
): { edits: Edit[]; ref: string } | undefined {
  const to = `$.data.${c.field}`;
  const now = c.producer.extract.find((x) => slot.expr === `${c.producer.resource}.${x.name}`);
  const matches = (e: Edit, target: string) => e.kind === 'extract' && targetOf(e) === target && e.to === to;
  if (now && !passedReaders.has(slot.template)) {
    const fix: Edit = { kind: 'extract', operation: c.producer.id, name: now.name, from: now.path, to };
    // proposed already for another id: nothing more to change
    if (ctx.pending.some((e) => matches(e, targetOf(fix)))) return { edits: [], ref: slot.template };
    // an extraction this calibration changed already is not changed again: a new one instead
    if (!ctx.edited.has(targetOf(fix))) return { edits: [fix], ref: slot.template };
  }
  const extract: Edit = { kind: 'extract', operation: c.producer.id, name: c.field, to };
  const ref = `{{${c.producer.resource}.${c.field}}}`;
  const has = c.producer.extract.some((x) => x.name === c.field) || ctx.pending.some((e) => matches(e, targetOf(extract)));
  const edits: Edit[] = [...(has ? [] : [extract]), { kind: 'path_ref', operation: op.id, from: slot.template, to: ref }];
  return edits.some((e) => ctx.edited.has(targetOf(e))) ? undefined : { edits, ref };
}
