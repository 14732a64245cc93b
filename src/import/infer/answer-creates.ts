// A create of another resource, known by what it answers (docs/format.md#answer-create): a POST
// elsewhere (`POST /invite/{token}/signup`) whose success answer is the named schema that
// resource's create or its read of one instance answers (`#/components/schemas/userSchema`, the
// answer of `GET /users/{id}`), that sends only fields the create's body takes, and whose answer
// holds the id the create's answer holds, at the same place. It makes one of them: it becomes an
// operation of that resource, extracts the id as the create does, and the run owns what it
// made, which the clean-up removes with the resource's DELETE of one instance. Never from a
// name; never a login (which answers who logged in), nor a POST whose path names an instance of
// that resource (an action on one that exists).
import { quote, type ObservedField } from '../observed.js';
import type { DraftOperation } from './draft.js';
import { endpointId, type Endpoint } from './endpoints.js';
import { jsonPath } from './extractions.js';
import { findIdField, successFields } from './id-fields.js';
import { ident, singular, snake, unique } from './names.js';
import { collectionShape, isVarSegment, segmentText } from './paths.js';
import { fieldText } from './traffic.js';

export interface AnswerCreate {
  /** the resource's own create, whose extraction of the id this one repeats */
  create: Endpoint;
  /** the id in this POST's answer, at the place the create's answer has it */
  field: ObservedField;
  removal: Endpoint;
  why: string;
}

const isSuccess = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** The named schemas of an endpoint's success answers; undefined when one of them names none. */
function answered(e: Endpoint): Set<string> | undefined {
  const rs = e.ops.flatMap((o) => o.responses).filter((r) => isSuccess(r.status));
  if (!rs.length || rs.some((r) => !r.schema)) return undefined;
  return new Set(rs.map((r) => r.schema!));
}

/** Top-level names of the fields a request body states. */
function bodyNames(e: Endpoint): string[] {
  return [...new Set((e.ops[0].requestBody?.fields ?? []).filter((f) => !f.listPath).map((f) => f.path[0]))];
}

interface Made {
  resource: string;
  create: Endpoint;
  removal: Endpoint;
  id: ObservedField;
  /** named schema -> the operation whose answer it is */
  schemas: Map<string, Endpoint>;
  /** the item path's shape: a POST under it acts on an instance */
  item: string;
}

/** Each resource a create makes and one DELETE removes, with what an instance of it is answered as. */
function removableResources(live: readonly Endpoint[]): Made[] {
  const out: Made[] = [];
  const creates = live.filter((e) => e.method === 'POST' && e.name.kind === 'collection' && !e.answerCreate).sort((a, b) => a.ops[0].order - b.ops[0].order);
  for (const create of creates) {
    if (out.some((m) => m.resource === create.resource)) continue;
    const collection = collectionShape(create.segments);
    const ofItem = (e: Endpoint): boolean =>
      e.resource === create.resource && isVarSegment(e.segments.at(-1) ?? []) && collectionShape(e.segments.slice(0, -1)) === collection;
    const removal = live.find((e) => e.method === 'DELETE' && ofItem(e));
    const last = removal?.segments.at(-1)?.[0];
    const id = last?.kind === 'var' ? findIdField(create, last.name, create.resource) : undefined;
    if (!removal || !id || id.listPath) continue;
    const schemas = new Map<string, Endpoint>();
    for (const e of [create, ...live.filter((x) => x.method === 'GET' && ofItem(x))]) for (const s of answered(e) ?? []) if (!schemas.has(s)) schemas.set(s, e);
    if (schemas.size) out.push({ resource: create.resource, create, removal, id, schemas, item: `${collection}/{}` });
  }
  return out;
}

/**
 * Mark and move each POST that makes an instance of another resource: it becomes an operation of
 * that resource (`user_admin.signup`), with `answerCreate` saying why. `logins`: the POSTs an
 * actor logs in with, never a create.
 */
export function findAnswerCreates(endpoints: Endpoint[], logins: ReadonlySet<Endpoint>): Endpoint[] {
  const live = endpoints.filter((e) => !e.blocked);
  const made = removableResources(live);
  const moved: Endpoint[] = [];
  for (const e of live) {
    if (e.method !== 'POST' || logins.has(e)) continue;
    const schemas = answered(e);
    const sent = bodyNames(e);
    if (!schemas || !sent.length) continue;
    const hits = made.filter((m) => [...schemas].every((s) => m.schemas.has(s)));
    if (hits.some((m) => m.resource === e.resource || namesInstanceOf(e, m))) continue;
    const [m] = hits;
    if (hits.length !== 1) continue; // two resources answered alike: which one it makes, nothing says
    const takes = new Set(bodyNames(m.create));
    const field = successFields(e).find((f) => !f.listPath && f.path.join('.') === m.id.path.join('.'));
    if (!field || !sent.every((n) => takes.has(n))) continue;
    const [schema] = schemas;
    const by = m.schemas.get(schema)!;
    const why =
      `${e.ops[0].key} answers ${quote(schema, 120)} (${field.evidence.file} ${field.evidence.at}), as ${endpointId(by)} (${by.ops[0].key}) does, ` +
      `and sends only fields ${endpointId(m.create)}'s body takes (${sent.slice(0, 8).join(', ')}${sent.length > 8 ? ', …' : ''}): it makes a ${m.resource}, whose ${fieldText(field.path)} its answer holds as ${endpointId(m.create)}'s does; ` +
      `the run owns what it made, and the clean-up removes it with ${endpointId(m.removal)} (${m.removal.ops[0].key})`;
    e.resource = m.resource;
    e.operation = unique(e.operation, new Set(endpoints.filter((x) => x !== e && x.resource === m.resource).map((x) => x.operation)));
    e.answerCreate = { create: m.create, field, removal: m.removal, why };
    moved.push(e);
  }
  return moved;
}

/** A path under the resource's item path, or with a placeholder after the resource's word: it acts on one that exists. */
function namesInstanceOf(e: Endpoint, m: Made): boolean {
  if (`${collectionShape(e.segments)}/`.startsWith(`${m.item}/`)) return true;
  return e.segments.some((seg, i) => i > 0 && isVarSegment(seg) && singular(snake(segmentText(e.segments[i - 1]) ?? '')) === m.resource);
}

/**
 * Each such create extracts the id under the name its resource's create extracts it (`id`), so
 * what it made is an instance the resource's DELETE names.
 */
export function applyAnswerCreates(built: ReadonlyMap<Endpoint, DraftOperation>): void {
  for (const [e, op] of built) {
    const a = e.answerCreate;
    const create = a && built.get(a.create);
    if (!a || !create) continue;
    const path = jsonPath(a.field.path);
    const name = Object.keys(create.extract).find((k) => create.extract[k] === path) ?? ident(String(a.field.path.at(-1)));
    op.extract[name] = path;
    op.evidence[`extract.${name}`] =
      `${fieldText(a.field.path)} of its answer, where ${endpointId(a.create)} extracts ${name} (${a.field.evidence.file} ${a.field.evidence.at})`;
    op.evidence.create = a.why;
  }
}
