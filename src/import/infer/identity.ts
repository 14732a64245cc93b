// A create's identity: the body field the created item is addressed by (`POST /features`
// with `name`, read back at `/features/{featureName}`). A documented example there makes a
// test that passes once: the next run, or the calibrate before it, finds the name taken
// (409) or archived. The example keeps its text and gets the run-unique part values.ts gives
// every unique literal (a UUID) after it.
import { RUN_UNIQUE, type TemplateValue } from '../../project/index.js';
import type { Endpoint } from './endpoints.js';
import { collectionShape, isVarSegment, shapeOf } from './paths.js';

/**
 * Collection shape -> the parameter of the item path right under it (`/features` ->
 * `featureName` from `/features/{featureName}`), once per import: a create looks its own up.
 */
export function itemParams(endpoints: readonly Endpoint[]): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const p of endpoints) {
    const last = p.segments[p.segments.length - 1];
    if (!last || !isVarSegment(last) || last[0].kind !== 'var') continue;
    const shape = shapeOf(p.segments.slice(0, -1));
    if (!out.has(shape)) out.set(shape, last[0].name);
  }
  return out;
}

/**
 * `name`, when the create's body has one and the item's parameter is not an id
 * (`{featureName}`, `{contextField}`, `{name}`: an item addressed by its name). Other fields
 * spelt like the parameter may name something that must exist (`POST /tags {type}` under
 * `/tags/{type}`): left as they are.
 */
function identityField(body: Record<string, TemplateValue>, param: string): string | undefined {
  if (/(^|_)(id|uuid)$|[a-z](Id|Uuid)$/i.test(param)) return undefined;
  return Object.hasOwn(body, 'name') ? 'name' : undefined;
}

/**
 * Make the identity of a create's body unique per run, when it is a literal (a documented
 * example): returns the evidence to record, or undefined when nothing was changed.
 */
export function uniqueIdentity(body: TemplateValue | undefined, e: Endpoint, items: ReadonlyMap<string, string>): { key: string; why: string } | undefined {
  if (e.method !== 'POST' || e.name.kind !== 'collection') return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, TemplateValue>;
  const param = items.get(collectionShape(e.segments));
  const field = param === undefined ? undefined : identityField(record, param);
  const value = field === undefined ? undefined : record[field];
  if (field === undefined || typeof value !== 'string' || value.includes('{{') || value === '') return undefined;
  record[field] = `${value}-${RUN_UNIQUE}`;
  return {
    key: `body.${field}`,
    why: `the created item is addressed by it ({${param}} under ${shapeOf(e.segments)}): the example ${JSON.stringify(value)} gets a run-unique part, so a second run does not find it taken`,
  };
}
