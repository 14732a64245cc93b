// Ids that only the create's request holds: `POST /lists/{listName}/labels {"value": "urgent"}`
// answers 204, and `DELETE /lists/{listName}/labels/{labelValue}` names the label by the value
// the create sent. No answer returns it, so the path's id is that body field's value: the
// input's example, held in one environment variable that the create's body and the item's path
// both read, so the two stay one value.
//
// Only under a parent the run creates (the path names `{{list.name}}` before the id, from a
// create's answer): the parent is new each run, so the example cannot name anything that was
// there before, and a write there is sent only for the run's own parent (docs/format.md#ownership).
// At the top of the API (`DELETE /tags/{tagValue}`) the path would name no instance, and a fixed
// value would reach data someone else made: that id stays the user's to give.
import { escapeRegExp, RUN_UNIQUE, SET_VIA_VAR, type TemplateValue } from '../../project/index.js';
import type { DraftOperation } from './draft.js';
import { endpointId, type Endpoint } from './endpoints.js';
import { snake } from './names.js';

/** One body field of a create that names what it made, and the variable that holds it. */
export interface SentId {
  create: Endpoint;
  field: string;
  /** `{{env.label_value}}` */
  ref: string;
  /** why the create's body reads the variable */
  why: string;
  /** the operations whose path reads it: each runs after the create */
  consumers: Endpoint[];
}

const words = (s: string): string[] => snake(s).split('_').filter(Boolean);
const endsWith = (a: readonly string[], b: readonly string[]): boolean => b.length <= a.length && b.every((w, i) => a[a.length - b.length + i] === w);
const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && endsWith(a, b);

/**
 * Whether the path parameter `param`, of an item of `resource`, names the body field `field`:
 * the field alone (`{value}`), after the resource's name or its end (`{labelValue}`,
 * `{tokenName}` of an api_token), or the resource's name that ends with it (`{legalValue}` of
 * a legal_value, by its `value`).
 */
export function namesField(param: string, resource: string, field: string): boolean {
  const p = words(param);
  const r = words(resource);
  const f = words(field);
  if (!f.length || !endsWith(p, f)) return false;
  return endsWith(r, p.slice(0, p.length - f.length)) || (same(p, r) && endsWith(r, f));
}

/** The importer's run-unique forms (values.ts, identity.ts): `urgent-{{$.uuid}}`, `jo+{{$.uuid}}@example.com`. */
const UNIQUE_PART = escapeRegExp(RUN_UNIQUE);
const UNIQUE_FORMS = [new RegExp(`^(.+)-${UNIQUE_PART}$`), new RegExp(`^(.+)\\+${UNIQUE_PART}(@.+)$`)];

/** `{{env.x}}` -> `env.x`: evidence names a reference, it does not hold one. */
export const refText = (ref: string): string => ref.replace(/^\{\{\s*|\s*\}\}$/g, '');

/**
 * The input's example a body value holds, fit to stand in a path: a literal, or one the importer
 * made run-unique (the parent is new each run, so the example alone is never taken), never
 * another reference, an empty text or a placeholder the user fills.
 */
export function exampleOf(value: TemplateValue | undefined): { literal: string | number; unique: boolean } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? { literal: value, unique: false } : undefined;
  if (typeof value !== 'string' || value === '' || value === SET_VIA_VAR) return undefined;
  if (!value.includes('{{')) return { literal: value, unique: false };
  for (const re of UNIQUE_FORMS) {
    const m = re.exec(value);
    if (m && !m[1].includes('{{') && !(m[2] ?? '').includes('{{')) return { literal: `${m[1]}${m[2] ?? ''}`, unique: true };
  }
  return undefined;
}

/** The create's top-level body fields the parameter names, the most specific first. */
export function fieldsNamed(draft: DraftOperation, param: string, resource: string): string[] {
  const body = draft.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || '__reqflow' in body) return [];
  return Object.keys(body)
    .filter((k) => namesField(param, resource, k) && exampleOf((body as Record<string, TemplateValue>)[k]) !== undefined)
    .sort((a, b) => words(b).length - words(a).length);
}

/** The creates' bodies read the variables, and each reader of one runs after its create. */
export function applySentIds(sent: readonly SentId[], built: ReadonlyMap<Endpoint, DraftOperation>): void {
  for (const s of sent) {
    const create = built.get(s.create);
    if (!create) continue;
    (create.body as Record<string, TemplateValue>)[s.field] = s.ref;
    create.evidence[`body.${s.field}`] = s.why;
    const id = endpointId(s.create);
    for (const c of s.consumers) {
      const op = built.get(c);
      if (!op || op.dependsOn.includes(id)) continue;
      op.dependsOn.push(id);
      const why = `${id} makes what its path names by ${refText(s.ref)} (its answer returns no id)`;
      op.evidence.depends_on = op.evidence.depends_on ? `${op.evidence.depends_on}; ${why}` : why;
    }
  }
}
