// Query parameters a 400/422 may be asking for: the description (--openapi) declares some the
// request does not send (`?projectId=`), and a server that wants one answers 400, often naming
// nothing. Each gets a value from this run where its name is a resource's (`projectId` ->
// `{{project.id}}`, as body ids are linked), else the one the description gives (its example,
// enum or default); one with neither is not tried. Proposed only once a try is accepted (repair.ts).
import { escapeRegExp, type Operation, type Project, type TemplateValue } from '../project/index.js';
import { resourceRef } from './body-links.js';
import { namedFields } from './error-fields.js';
import type { DeclaredQuery } from './types.js';
import { givenValue } from './values.js';

/** Declared parameters read at most for one operation: the description is untrusted. */
const MAX_DECLARED = 64;

export interface QueryCandidate {
  name: string;
  value: TemplateValue;
  /** the answer names it */
  named: boolean;
}

/** The parameter names a path already sends in its own query (`/items?sort=x`). */
function inPath(path: string): string[] {
  const query = path.split('?')[1] ?? '';
  return query
    .split('&')
    .map((p) => p.split('=')[0])
    .filter(Boolean);
}

/**
 * The declared query parameters `op` does not send and that have a value to try, the ones
 * the answer (`excerpt`) names first. `edited`: targets proposed already, not tried again.
 */
export function missingQuery(
  project: Project,
  op: Operation,
  declared: readonly DeclaredQuery[],
  excerpt: string,
  edited: ReadonlySet<string>,
): QueryCandidate[] {
  const sent = new Set([...Object.keys(op.queryParams), ...inPath(op.path)]);
  const names = declared.slice(0, MAX_DECLARED).map((d) => d.name);
  // a shape that names fields (`errors[].field`), or the name as a word of the message (`/query/projectId`)
  const namedHere = new Set(namedFields(excerpt, names));
  const out: QueryCandidate[] = [];
  for (const d of declared.slice(0, MAX_DECLARED)) {
    if (sent.has(d.name) || edited.has(`${op.id} query ${d.name}`)) continue;
    const given = givenValue(d.schema);
    // a description's `{{` would be read as a reference
    const value = resourceRef(project, op, d.name) ?? (typeof given === 'string' && given.includes('{{') ? undefined : given);
    if (value === undefined) continue;
    const named = namedHere.has(d.name) || new RegExp(`(?<![\\w-])${escapeRegExp(d.name)}(?![\\w-])`).test(excerpt);
    out.push({ name: d.name, value, named });
  }
  return out.sort((a, b) => Number(b.named) - Number(a.named));
}
