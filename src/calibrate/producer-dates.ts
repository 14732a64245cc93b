// A request without a body refused (400/422) where its path names what a create of the run
// made, and that create's body holds a date that has passed (an expiry sent as `{{$.now}}`, or
// the description's example from years ago): what the path names had expired before it was
// read. The create's dates are moved a day ahead, and the refused request tried again.
import { parseTemplate, refSource } from '../graph/index.js';
import type { Operation, Project } from '../project/index.js';
import { A_DAY_AHEAD, staleDates } from './body.js';
import type { Edit } from './types.js';

/** The creates whose extraction the path reads (`/invite/{{token.secret}}` -> the POST of `token` extracting `secret`). */
function pathCreates(project: Project, op: Operation): Operation[] {
  const out: Operation[] = [];
  for (const part of parseTemplate(op.path)) {
    if (part.kind !== 'ref') continue;
    const [scope, field] = refSource(part.raw).split('.');
    if (!field || scope === 'env' || scope === 'secret' || scope.startsWith('$')) continue;
    for (const p of project.operations.values())
      if (p.id !== op.id && p.method === 'POST' && p.resource === scope && p.extract.some((x) => x.name === field) && !out.includes(p)) out.push(p);
  }
  return out;
}

export function producerDates(
  project: Project,
  op: Operation,
  status: number,
  edited: ReadonlySet<string>,
): { edits: Edit[]; why: string; what: string } | undefined {
  const edits: Edit[] = [];
  const said: string[] = [];
  for (const create of pathCreates(project, op)) {
    const stale = staleDates(create).filter((f) => !edited.has(`${create.id} body ${f}`));
    if (!stale.length) continue;
    edits.push(...stale.map((field): Edit => ({ kind: 'body_field', operation: create.id, field, value: A_DAY_AHEAD })));
    said.push(`${stale.map((f) => `\`${f}\``).join(', ')} of ${create.id}`);
  }
  if (!edits.length) return undefined;
  return {
    edits,
    why: `answered ${status} to a request with no body, and what its path names was made with ${said.join(', ')} holding a date that has passed`,
    what: `with ${said.join(', ')} a day ahead`,
  };
}
