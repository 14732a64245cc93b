// Ids in a path that come from elsewhere: a `{{env.X}}` given from outside (often
// <SET_VIA_--var>), or another resource's extraction. A 404 names the id and its producer;
// and when the producer (the POST on the path before the id) answered this round with an
// object carrying the value, the link is proposed: `extract` where the value really is,
// `{{resource.field}}` in the consumer's path, proven by the consumer's 2xx.
import { mapRefs, parseTemplate, refSource } from '../graph/index.js';
import type { FlowResponse } from '../http/index.js';
import type { Operation, Project } from '../project/index.js';
import type { Edit } from './types.js';
import { onePlace, SECRET_PLACE } from './search.js';

/** A path's shape: each reference (the graph's parser reads it) one `{}`, no trailing slash. */
export const shape = (p: string) => mapRefs(p, () => '{}').replace(/\/+$/, '');
/** A collection's path without a format suffix: `/issues.json` creates what `/issues/{id}.json` reads. */
export const collection = (p: string) => shape(p).replace(/\.(json|xml)$/i, '');

interface PathId {
  /** as written: `{{env.bucket_id}}` */
  template: string;
  /** `env.bucket_id` */
  expr: string;
  /** the POST on the path before the id, when the project has one */
  producer?: Operation;
}

/** The ids of an operation's path and the operation that creates each. */
function pathIds(project: Project, op: Operation): PathId[] {
  const out: PathId[] = [];
  for (const part of parseTemplate(op.path)) {
    if (part.kind !== 'ref') continue;
    const prefix = shape(op.path.slice(0, part.offset));
    const producer = [...project.operations.values()].find((p) => p.id !== op.id && p.method === 'POST' && collection(p.path) === prefix);
    out.push({ template: part.raw, expr: refSource(part.raw), producer });
  }
  return out;
}

/** What a 404 body says is missing: `details: { id, resource_name }` (Cornice), else its message. */
function missingOf(excerpt: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(excerpt);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const d = b.details && typeof b.details === 'object' ? (b.details as Record<string, unknown>) : {};
  if (typeof d.resource_name === 'string' && (typeof d.id === 'string' || typeof d.id === 'number'))
    return `the server says ${d.resource_name} \`${String(d.id).slice(0, 100)}\` is missing`;
  return typeof b.message === 'string' ? `the server says "${b.message.slice(0, 200)}"` : undefined;
}

/** The creates of the ids given from outside in the operation's path (`{{env.bucket_id}}` -> bucket.create). */
export function producersOf(project: Project, operation: string): Operation[] {
  return pathIds(project, project.operations.get(operation)!).flatMap((id) => (id.expr.startsWith('env.') && id.producer ? [id.producer] : []));
}

/** Whether the operation's path holds an id given from outside (`{{env.X}}`) that a create of the project would produce. */
export function unproducedId(project: Project, operation: string): boolean {
  return pathIds(project, project.operations.get(operation)!).some((id) => id.expr.startsWith('env.') && id.producer);
}

/** The 404 (or 403) diagnosis: which id of the path comes from where, and what would produce it. */
export function idDiagnosis(project: Project, operation: string, excerpt = '', status = 404): string {
  const op = project.operations.get(operation)!;
  const ids = pathIds(project, op);
  const said = missingOf(excerpt);
  if (!ids.length)
    return `answered ${status} where success is expected, and its path has no id${said ? ` (${said})` : ''}: the path or the base URL needs a look`;
  const parts = ids.map((id) => {
    const from = id.expr.startsWith('env.') ? `is given from outside (env.${id.expr.slice(4)})` : `comes from ${id.expr}`;
    const by = id.producer ? `; ${id.producer.id} (${id.producer.method} ${id.producer.path}) creates it` : '; no operation of the project creates it';
    return `\`${id.template}\` ${from}${by}`;
  });
  const missing =
    status === 404
      ? 'a resource of its path is missing'
      : 'its path holds an id no operation of this run produced, and a server often refuses what does not exist';
  return `answered ${status} where success is expected: ${missing}${said ? ` (${said})` : ''}. ${parts.join('. ')}`;
}

/** The field that holds a variable's value in its producer's answer: `bucket_id`, `bucketId` -> `id`. */
const fieldFor = (variable: string) => (/(^|_|[a-z])(id|Id|ID)$/.test(variable) ? 'id' : variable);

/**
 * The edits linking each `{{env.X}}` of the operation's path to its producer, read from the
 * producer's answer this round; empty when no producer answered with the value in one place,
 * or when a variable in `unset` (given by nobody) stays unlinked: the try could not run.
 */
export function linkEdits(
  project: Project,
  operation: string,
  responses: ReadonlyMap<string, FlowResponse>,
  unset: readonly string[] = [],
  isSecret?: (text: string) => boolean,
): { edits: Edit[]; why: string[] } {
  const op = project.operations.get(operation)!;
  const edits: Edit[] = [];
  const why: string[] = [];
  const none = { edits: [], why: [] };
  const ids = pathIds(project, op);
  // a variable the path does not hold (an actor's, a header's) is not the link's to give
  if (unset.some((v) => !ids.some((id) => id.expr === `env.${v}`))) return none;
  for (const id of ids) {
    if (!id.expr.startsWith('env.')) continue;
    const must = unset.includes(id.expr.slice(4));
    if (!id.producer) {
      if (must) return none;
      continue;
    }
    const response = responses.get(id.producer.id);
    let json: unknown;
    try {
      // only a success carries the value: a refusal's body names the id it did not find
      json = response && response.status >= 200 && response.status < 300 ? response.json() : undefined;
    } catch {
      json = undefined;
    }
    const field = fieldFor(id.expr.slice(4));
    const found = json && typeof json === 'object' && !Array.isArray(json) ? onePlace(json, field, false, isSecret) : undefined;
    // a place under a secret key is never written into an edit
    const place = found === SECRET_PLACE ? undefined : found;
    if (!place) {
      if (must) return none;
      continue;
    }
    const producer = id.producer;
    const existing = producer.extract.find((x) => x.name === field);
    if (existing?.path !== place) edits.push({ kind: 'extract', operation: producer.id, name: field, from: existing?.path, to: place });
    edits.push({ kind: 'path_ref', operation: op.id, from: id.template, to: `{{${producer.resource}.${field}}}` });
    why.push(`${producer.id} answered ${response!.status} with \`${field}\` at ${place}`);
  }
  return { edits, why };
}
