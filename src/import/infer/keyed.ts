// A create at a key the run chooses (docs/format.md#keyed-create): "create or update at this
// name" endpoints (`PUT /buckets/{bucket}`, `POST /indexes/{indexName}`) make the item at the
// key their path ends with, and the API has no POST on the collection to make one otherwise.
// Such a write is the resource's create when the description calls it one: its operationId or
// summary says "create", or it answers 201 Created. A bare PUT says no more than "write here",
// and stays a write on an existing item. The key is then one the run draws
// (`bucket-{{$.uuid}}`, in one environment variable: drawn once per run), which every
// operation at that item's path reads, each after the create: the run writes only to an item it
// made, and its clean-up removes it. A key a list gives, or one the user gives with --var, names
// what exists: the runner never takes what is there for the run's.
import type { Endpoint } from './endpoints.js';
import { endpointId } from './endpoints.js';
import type { DraftOperation } from './draft.js';
import { isVarSegment, shapeOf } from './paths.js';
import { RUN_UNIQUE } from '../../project/index.js';

export interface KeyedCreate {
  create: Endpoint;
  /** the placeholder of the key (`bucket`) */
  param: string;
  /** the description's words that call it a create */
  said: string;
  /** `{{env.bucket_name}}`, once bound */
  ref?: string;
}

/** `createApplication`, `create_bucket`, `create`: an operationId that starts with the verb. */
const CREATE_ID = /^create(?![a-z])/;
/** "Create a bucket…", "Creates an index": a summary that starts with the verb. */
const CREATE_SUMMARY = /^\s*creates?\b/i;

/** What in the description calls `e` a create, quoted; undefined when nothing does. */
function saysCreate(e: Endpoint): string | undefined {
  const op = e.ops[0];
  if (op.operationId && CREATE_ID.test(op.operationId)) return `operationId ${op.operationId}`;
  if (op.summary && CREATE_SUMMARY.test(op.summary)) return `summary "${op.summary.slice(0, 80)}"`;
  if (op.responses.some((r) => r.status === 201)) return 'it answers 201 Created';
  return undefined;
}

/**
 * The keyed create of each resource that has no create on its collection: the first PUT or POST
 * on a path that ends with a documented placeholder and that the description calls a create.
 * Each becomes its resource's `create` (when that name is free), by the shape of its item path.
 */
export function findKeyedCreates(endpoints: readonly Endpoint[]): Map<string, KeyedCreate> {
  const live = endpoints.filter((e) => !e.blocked);
  const collectionCreate = new Set(endpoints.filter((e) => e.method === 'POST' && e.name.kind === 'collection').map((e) => e.resource));
  const out = new Map<string, KeyedCreate>();
  const done = new Set<string>();
  for (const e of [...live].sort((a, b) => a.ops[0].order - b.ops[0].order)) {
    if ((e.method !== 'PUT' && e.method !== 'POST') || e.name.kind !== 'item' || collectionCreate.has(e.resource) || done.has(e.resource)) continue;
    const last = e.segments.at(-1);
    const part = last && isVarSegment(last) ? last[0] : undefined;
    if (part?.kind !== 'var' || part.style !== 'param') continue;
    const said = saysCreate(e);
    if (!said) continue;
    done.add(e.resource);
    if (!live.some((o) => o !== e && o.resource === e.resource && o.operation === 'create')) e.operation = 'create';
    out.set(shapeOf(e.segments), { create: e, param: part.name, said });
  }
  return out;
}

/** The value of the key's variable: the resource's name and a run-unique part (`bucket-{{$.uuid}}`). */
export function drawnValue(resource: string): string {
  return `${resource.replace(/_/g, '-')}-${RUN_UNIQUE}`;
}

/** Each operation that reads a keyed create's key runs after that create. */
export function applyKeyedCreates(keyed: ReadonlyMap<string, KeyedCreate>, built: ReadonlyMap<Endpoint, DraftOperation>): void {
  for (const k of keyed.values()) {
    if (!k.ref || !built.has(k.create)) continue;
    const id = endpointId(k.create);
    const variable = k.ref.replace(/^\{\{\s*|\s*\}\}$/g, '');
    built.get(k.create)!.evidence.create =
      `${k.create.ops[0].key} makes the ${k.create.resource} at the {${k.param}} its path ends with (${k.said}), and the input has no POST on the collection: ` +
      `the run draws that key (${variable}, with a run-unique part), so it writes only to what it made`;
    for (const [e, op] of built) {
      if (e === k.create || !op.path.includes(k.ref) || op.dependsOn.includes(id)) continue;
      op.dependsOn.push(id);
      const why = `${id} makes the ${k.create.resource} at ${variable}, the key the run draws`;
      op.evidence.depends_on = op.evidence.depends_on ? `${op.evidence.depends_on}; ${why}` : why;
    }
  }
}
