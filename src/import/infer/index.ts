// Inference: the observed API -> a draft project (actors, resources, operations, extractions,
// dependencies, environment), every decision with its evidence, every gap an open question.
import type { TemplateValue } from '../../project/index.js';
import { evidenceText, type ObservedApi } from '../observed.js';
import { inferActors, loginRequests } from './actors.js';
import { applyAnswerCreates, findAnswerCreates } from './answer-creates.js';
import { chooseBase } from './base.js';
import { Resolver } from './bindings.js';
import { InferContext } from './context.js';
import { inferDependencies } from './deps.js';
import type { RequestFate } from '../check/coverage.js';
import type { Draft, DraftOperation, DraftResource, VariableFlow } from './draft.js';
import { buildEndpoints, endpointId, type Endpoint } from './endpoints.js';
import { Extractions } from './extractions.js';
import { itemParams } from './identity.js';
import { buildOperation } from './operation.js';
import { isPluralWord } from './names.js';
import { segmentText, shapeOf, type Segment } from './paths.js';
import { applySentIds } from './sent-ids.js';
import { applyKeyedCreates, findKeyedCreates, type KeyedCreate } from './keyed.js';
import { addParentReads, parentReads } from './parent-reads.js';
import { isIdLike } from './traffic.js';
import { unfillableFields } from './values.js';

export interface InferOptions {
  /** project name; default: the first input's title */
  name?: string;
  /** environment id; default `default` */
  environment?: string;
  /** called every `every` operations with (done, total) */
  progress?: (done: number, total: number) => void;
}

export function infer(api: ObservedApi, options: InferOptions = {}): Draft {
  const ctx = new InferContext(api);
  const endpoints = buildEndpoints(api.operations);
  applyReaderNotes(api, endpoints, ctx);

  // Token requests of oauth2 actors are the actors' token_url, not operations of the API.
  const tokenRequests = new Set(endpoints.filter((e) => e.ops.some((o) => api.schemes.some((s) => s.tokenUrl && s.loginOperation === o.key))));
  for (const e of tokenRequests) e.blocked = { reason: 'the token request of an actor (its token_url)' };

  const base = chooseBase(endpoints, ctx, tokenRequests);
  const extractions = new Extractions();
  const built = new Map<Endpoint, DraftOperation>();
  const keyed = new Map<string, KeyedCreate>();
  const resolver = new Resolver(endpoints, ctx, extractions, built, keyed);
  const taken = new Set(endpoints.map((e) => e.resource));
  const actors = inferActors(endpoints, ctx, resolver, taken);
  blockUnfillableBodies(endpoints, ctx);
  blockBulkChanges(endpoints, ctx);
  for (const e of findAnswerCreates(endpoints, new Set(loginRequests(endpoints))))
    ctx.note('resources', `${endpointId(e)} is a create of ${e.resource}: ${e.answerCreate!.why}.`);
  for (const [shape, k] of findKeyedCreates(endpoints)) {
    keyed.set(shape, k);
    ctx.note(
      'resources',
      `${endpointId(k.create)} (${k.create.ops[0].key}) is a create at a key: the input calls it one (${k.said}) and has no POST on the collection, so the run draws the {${k.param}} it writes to, and what it made there is the run's.`,
    );
  }

  // Shorter paths first, so that longer ones inherit their placeholders' bindings.
  const live = endpoints.filter((e) => !e.blocked);
  const items = itemParams(endpoints);
  const byLength = [...live].sort((a, b) => a.segments.length - b.segments.length || a.ops[0].order - b.ops[0].order);
  resolver.parentReads = parentReads(endpoints);
  byLength.forEach((e, i) => {
    built.set(e, buildOperation(e, { ctx, resolver, itemParams: items }));
    if (options.progress && (i + 1) % 50 === 0) options.progress(i + 1, live.length);
  });
  live.push(...addParentReads(resolver.parentReads, extractions, built, (e) => buildOperation(e, { ctx, resolver, itemParams: items })));
  for (const [e, op] of built) {
    for (const x of extractions.of(e)) {
      op.extract[x.name] = x.path;
      op.evidence[`extract.${x.name}`] = x.why;
    }
  }
  applyAnswerCreates(built);
  applySentIds(resolver.sent(), built);
  applyKeyedCreates(keyed, built);
  addDependencies(endpoints, built);

  const resources = groupResources(live, built);
  for (const e of endpoints) {
    if (e.blocked && e.blocked.question === undefined && !tokenRequests.has(e)) ctx.note('resources', `Skipped ${e.ops[0].key}: ${e.blocked.reason}.`);
  }
  for (const e of tokenRequests) {
    ctx.note(
      'actors',
      `${e.ops[0].key} ("${e.ops[0].summary ?? e.ops[0].key}") is the token request of an actor: written as its token_url, not as an operation.`,
    );
  }
  const first = api.inputs[0];
  return {
    api,
    projectName: options.name ?? first?.title ?? 'imported-api',
    environment: options.environment ?? 'default',
    baseUrl: base.value,
    baseUrlNote: base.note,
    variables: [...ctx.variables.values()],
    actors,
    resources,
    questions: ctx.questions,
    flows: variableFlows(extractions, built, actors),
    notes: ctx.allNotes(),
    secrets: [...ctx.secrets.values()],
    requests: fatesOf(endpoints, tokenRequests),
  };
}

/** Each observed request, with what became of its endpoint. */
function fatesOf(endpoints: Endpoint[], tokenRequests: Set<Endpoint>): RequestFate[] {
  const out: Array<RequestFate & { order: number }> = [];
  for (const e of endpoints) {
    const fate: RequestFate['fate'] = !e.blocked ? 'emitted' : tokenRequests.has(e) ? 'token_url' : e.blocked.question !== undefined ? 'question' : 'skipped';
    for (const o of e.ops)
      out.push({ file: o.evidence.file, key: o.key, fate, operation: endpointId(e), reason: e.blocked?.reason, question: e.blocked?.question, order: o.order });
  }
  return out.sort((a, b) => a.order - b.order).map(({ order: _o, ...f }) => f);
}

function applyReaderNotes(api: ObservedApi, endpoints: Endpoint[], ctx: InferContext): void {
  for (const n of api.notes) {
    if (!n.blocks?.length && !n.question) {
      // Reader notes say what an input holds or leaves out: they explain the operations table.
      ctx.note('resources', `${n.text} (${evidenceText(n.evidence)})`);
      continue;
    }
    const blocked = endpoints.filter((e) => e.ops.some((o) => n.blocks?.includes(o.key)));
    const q = ctx.ask(n.text, blocked.map(endpointId), n.evidence);
    for (const e of blocked) e.blocked ??= { reason: n.text, question: q };
  }
}

function blockUnfillableBodies(endpoints: Endpoint[], ctx: InferContext): void {
  for (const e of endpoints) {
    if (e.blocked) continue;
    const missing = unfillableFields(e.ops[0].requestBody);
    if (!missing.length) continue;
    const names = missing.map((f) => `${f.path.join('.')} (${f.type})`).join(', ');
    const q = ctx.ask(
      `${e.ops[0].key} requires ${names} in its body and the input gives no example of it: what should a test send?`,
      [endpointId(e)],
      missing[0].evidence,
    );
    e.blocked = { reason: `required body fields without example: ${names}`, question: q };
  }
}

/**
 * docs/format.md#r6: a DELETE, PUT or PATCH on a collection path changes every item of the collection, data
 * the test did not create (a bulk DELETE /accounts removes the admin mid-run). It is an open
 * question, not an operation, until the user says it may run. A collection path: one with
 * items below it (a path below it ending in an id), or one named in the plural that items are
 * created on (a POST on it): `DELETE /buckets/{id}/collections` empties a bucket. On a path with
 * no id at all, a DELETE always, and a PUT or PATCH when the name is plural (`PUT /settings`).
 * A singular name changes one thing: `PUT /user` (the current user), `DELETE
 * /articles/{slug}/favorite` (undoing the POST on it).
 */
function blockBulkChanges(endpoints: Endpoint[], ctx: InferContext): void {
  const shapes = new Set(endpoints.map((e) => `${e.method} ${shapeOf(e.segments)}`));
  const isId = (seg: Segment) => seg.some((part) => part.kind === 'var' || /^\d+$/.test(part.text) || isIdLike(part.text));
  for (const e of endpoints) {
    if (e.blocked || !['DELETE', 'PUT', 'PATCH'].includes(e.method) || !e.segments.length) continue;
    const shape = shapeOf(e.segments);
    const last = segmentText(e.segments[e.segments.length - 1]) ?? '';
    const pluralName = isPluralWord(last);
    const holdsItems = [...shapes].some((s) => s.endsWith(` ${shape}/{}`)) || (pluralName && shapes.has(`POST ${shape}`));
    // a placeholder, or a literal id (`/notes/42` in a curl log), names one item
    const named = e.segments.some(isId);
    if (named && (isId(e.segments[e.segments.length - 1]) || !holdsItems)) continue;
    if (!named && !holdsItems && !pluralName && e.method !== 'DELETE') continue;
    const q = ctx.ask(
      `${e.method} ${e.ops[0].path} has no id of an item at its end: it changes or deletes every item of the collection, data a test did not create. Should a test run it (then add it by hand, against data the test creates)?`,
      [endpointId(e)],
      e.ops[0].evidence,
    );
    e.blocked = { reason: `${e.method} on a collection path (a bulk change)`, question: q };
  }
}

function addDependencies(endpoints: Endpoint[], built: Map<Endpoint, DraftOperation>): void {
  for (const edge of inferDependencies(endpoints)) {
    const from = built.get(edge.from);
    const to = built.get(edge.to);
    if (!from || !to) continue;
    const target = endpointId(edge.to);
    // Already implied by a reference to a value `to` extracts: no explicit edge needed.
    const text = JSON.stringify([from.path, from.body, from.bodyForm, from.queryParams, from.headers]);
    const implied = Object.keys(to.extract).some((v) => text.includes(`{{${to.resource}.${v}}}`));
    if (implied || from.dependsOn.includes(target)) continue;
    from.dependsOn.push(target);
    from.evidence.depends_on = from.evidence.depends_on ? `${from.evidence.depends_on}; ${edge.why}` : edge.why;
  }
}

function groupResources(live: Endpoint[], built: Map<Endpoint, DraftOperation>): DraftResource[] {
  const byName = new Map<string, DraftResource>();
  // a create known by its answer comes after the resource's own: the first producer of its id stays the create on its collection
  const inOrder = [...live].sort((a, b) => Number(!!a.answerCreate) - Number(!!b.answerCreate) || a.ops[0].order - b.ops[0].order);
  for (const e of inOrder) {
    const op = built.get(e);
    if (!op) continue;
    let r = byName.get(e.resource);
    if (!r) {
      r = { name: e.resource, plural: e.name.plural, operations: [], evidence: `operations on ${e.ops[0].path} and related paths` };
      byName.set(e.resource, r);
    }
    r.operations.push(op);
  }
  // Two resources must not share a file name.
  const files = new Set<string>();
  for (const r of byName.values()) {
    let p = r.plural;
    if (files.has(p) || (p === r.name && [...byName.values()].some((o) => o !== r && o.plural === p))) p = `${r.name}_${p}`;
    files.add(p);
    r.plural = p;
  }
  return [...byName.values()];
}

function variableFlows(
  extractions: Extractions,
  built: Map<Endpoint, DraftOperation>,
  actors: Array<{ name: string; auth: Record<string, TemplateValue>; injectHeaders?: Record<string, string> }>,
): VariableFlow[] {
  const flows: VariableFlow[] = [];
  const texts = [...built.values()].map((op) => ({
    id: `${op.resource}.${op.name}`,
    text: JSON.stringify([op.path, op.body, op.bodyForm, op.queryParams, op.headers]),
  }));
  for (const x of extractions.all()) {
    const ref = `{{${x.resource}.${x.name}}}`;
    const consumedBy = texts.filter((t) => t.text.includes(ref)).map((t) => t.id);
    for (const a of actors) if (JSON.stringify(a.auth).includes(ref)) consumedBy.push(`actor ${a.name}`);
    flows.push({ variable: ref, producedBy: endpointId(x.producer), consumedBy });
  }
  for (const a of actors) {
    if (!a.injectHeaders) continue;
    flows.push({ variable: `{{${a.name}.token}}`, producedBy: `actor ${a.name} (login)`, consumedBy: [`every operation of actor ${a.name} (inject.headers)`] });
  }
  return flows;
}
