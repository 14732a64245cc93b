// A create that answers no id (`POST /features/{featureName}/link` answering 204, no body): its
// items show only in the read of the parent it posts under, as a list of that parent's answer
// (`GET /features/{featureName}` returns `links: [{id, url}]`). The item placeholder of that
// collection (`{linkId}`) is then the `id` of that list's items, extracted by a read of the
// parent written as an operation of the create's resource (`link.find_in_feature`, after the
// create), and the field the create sends that the items carry (`url`) gets a run-unique part:
// the runner owns the one item that carries it (docs/format.md#create-no-id), no other.
import { isPlainObject, RUN_UNIQUE, type TemplateValue } from '../../project/index.js';
import type { ObservedField } from '../observed.js';
import type { DraftOperation } from './draft.js';
import { endpointId, type Endpoint } from './endpoints.js';
import type { Extractions } from './extractions.js';
import { successFields } from './id-fields.js';
import { singular, snake } from './names.js';
import { isVarSegment, segmentText, shapeOf } from './paths.js';

export interface ParentRead {
  create: Endpoint;
  /** the parent's GET, as an operation of the create's resource */
  finder: Endpoint;
  /** where the items are in the parent's answer: `['links']` */
  list: string[];
  /** the top-level field the create sends that the items carry: `url` */
  field: string;
  why: string;
}

/** Each such create, by the shape of the collection it posts to (`/features/{}/link`). */
export function parentReads(endpoints: Endpoint[]): Map<string, ParentRead> {
  const out = new Map<string, ParentRead>();
  const live = endpoints.filter((e) => !e.blocked);
  const shapes = new Map(live.map((e) => [`${e.method} ${shapeOf(e.segments)}`, e]));
  for (const create of live) {
    const word = create.method === 'POST' ? segmentText(create.segments.at(-1) ?? []) : undefined;
    const parent = create.segments.slice(0, -1);
    if (!word || !parent.length || !isVarSegment(parent[parent.length - 1])) continue;
    if (successFields(create).some((f) => f.path.at(-1) === 'id')) continue;
    const collection = shapeOf(create.segments);
    // an item of the collection is addressed (`…/link/{linkId}`): a placeholder to name
    if (!live.some((e) => e.resource === create.resource && e.segments.length === create.segments.length + 1 && shapeOf(e.segments) === `${collection}/{}`))
      continue;
    const read = shapes.get(`GET ${shapeOf(parent)}`);
    if (!read) continue;
    const found = itemsIn(read, create, word);
    if (!found) continue;
    // the resource's file stays the create's; in it, the read comes after the create
    const finder: Endpoint = {
      ...read,
      key: `${read.key}#${create.resource}`,
      ops: read.ops.map((o) => ({ ...o, order: create.ops[0].order + 0.5 })),
      name: { ...read.name, resource: create.resource, plural: create.name.plural },
      resource: create.resource,
      operation: `find_in_${read.resource}`,
      valueSources: new Map(),
    };
    const why =
      `${create.ops[0].key} answers no id; ${read.ops[0].key} returns its items as ${found.list.join('.')}[] with id and ${found.field} ` +
      `(${found.evidence.file} ${found.evidence.at}), the field it sends: the item with the run-unique ${found.field} it sent is the one it made`;
    out.set(collection, { create, finder, list: found.list, field: found.field, why });
  }
  return out;
}

/** The list of the parent's answer named after the collection (`links` for `/link`) whose items have `id` and a field the create sends. */
function itemsIn(read: Endpoint, create: Endpoint, word: string): { list: string[]; field: string; evidence: ObservedField['evidence'] } | undefined {
  const kind = singular(snake(word));
  const fields = successFields(read).filter((f) => f.listPath?.length === 1 && f.path.length === 1 && singular(snake(f.listPath[0])) === kind);
  const id = fields.find((f) => f.path[0] === 'id');
  if (!id) return undefined;
  const sent = (create.ops[0].requestBody?.fields ?? []).filter((f) => f.path.length === 1 && !f.listPath && f.type !== 'object' && f.type !== 'array');
  // a required field first: the create always sends it
  const carried = [...sent].sort((a, b) => Number(b.required) - Number(a.required)).find((s) => fields.some((f) => f.path[0] === s.path[0]));
  return carried ? { list: id.listPath!, field: carried.path[0], evidence: id.evidence } : undefined;
}

/**
 * The reads a placeholder was bound to (bindings.ts), each built as an operation of the create's
 * resource after its create, and each create's field made run-unique. Returns the reads built.
 */
export function addParentReads(
  reads: ReadonlyMap<string, ParentRead>,
  extractions: Extractions,
  built: Map<Endpoint, DraftOperation>,
  build: (e: Endpoint) => DraftOperation,
): Endpoint[] {
  const out: Endpoint[] = [];
  for (const r of reads.values()) {
    const create = built.get(r.create);
    if (!create || !extractions.of(r.finder).length) continue;
    const op = build(r.finder);
    op.dependsOn.push(endpointId(r.create));
    op.evidence.depends_on = `the item it finds is the one ${endpointId(r.create)} made`;
    built.set(r.finder, op);
    out.push(r.finder);
    const body = create.body;
    const sent = isPlainObject(body) ? body[r.field] : undefined;
    if (typeof sent !== 'string' || !sent || sent.includes('{{')) continue;
    // a URL keeps what it points to: the part goes after a `#`
    (body as Record<string, TemplateValue>)[r.field] = /^https?:\/\/[^#]*$/.test(sent) ? `${sent}#${RUN_UNIQUE}` : `${sent}-${RUN_UNIQUE}`;
    create.evidence[`body.${r.field}`] =
      `${JSON.stringify(sent)} with a run-unique part: ${endpointId(r.finder)} finds the item this create made by it (its answer has no id)`;
  }
  return out;
}
