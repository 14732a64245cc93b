// An e-mail a write looks someone up by (`POST /users/reset-password {"id": "user@example.com"}`,
// answered 404 "No user found"): the description's example, made run-unique by the import,
// names nobody on the server. The repair a user makes: the e-mail of the user this run creates.
// That create sends one (a run-unique one is added where the description lets it send an
// `email` and it does not), extracts it, and the write sends `{{user.email}}`. A candidate only:
// proposed once the try with all three is accepted (repair.ts), which also proves the create's
// answer holds the e-mail where the extraction reads it.
import { writeTarget, type ProjectGraph } from '../graph/index.js';
import { isPlainObject, withUniquePart, type Operation, type Project, type TemplateValue } from '../project/index.js';
import { topFields } from './body-links.js';
import { fieldOf, graphOf, targetOf } from './model.js';
import type { Edit } from './types.js';
import { isLiteral } from './unique.js';

type FieldSchema = ((op: Operation, field: string) => Record<string, unknown> | undefined) | undefined;

/** Body fields looked at in one write: the body is untrusted. */
const MAX_FIELDS = 20;

/** `user@example.com`, `user+{{$.uuid}}@example.com` (the import's run-unique form), `{{$.faker.email}}`. */
const EMAIL = /^[^\s@{}]+(?:\+\{\{\s*\$\.uuid\s*\}\})?@[^\s@{}]+\.[A-Za-z]{2,}$/;
const isEmail = (v: TemplateValue | undefined): v is string =>
  typeof v === 'string' && v.length <= 320 && (EMAIL.test(v) || /^\{\{\s*\$\.faker\.email\s*\}\}$/.test(v));

export interface MadeEmail {
  edits: Edit[];
  why: string;
  what: string;
}

/**
 * For a write answered 404 whose body sends an e-mail: the edits that send, in its place, the
 * e-mail of what this run creates: of the write's own resource, else of the one resource whose
 * create sends one or may. Undefined when no create, or more than one resource, fits.
 */
export function madeEmail(project: Project, op: Operation, edited: ReadonlySet<string>, fieldSchema: FieldSchema): MadeEmail | undefined {
  if (!isPlainObject(op.body)) return undefined;
  const field = topFields(op.body)
    .slice(0, MAX_FIELDS)
    .find(([, v]) => isEmail(v))?.[0];
  if (field === undefined) return undefined;
  const sent = fieldOf(op.body, field.split('.')) as string;
  const graph = graphOf(project);
  const found = emailCreates(project, graph, op, fieldSchema);
  const own = found.filter((c) => c.create.resource === op.resource);
  const resources = new Set(found.map((c) => c.create.resource));
  const chosen = own[0] ?? (resources.size === 1 ? found[0] : undefined);
  if (!chosen) return undefined;
  const { create, key } = chosen;
  const resource = create.resource;
  const name = key.split('.').at(-1)!;
  const edits: Edit[] = [];
  if (!chosen.sends) edits.push({ kind: 'body_field', operation: create.id, field: key, value: isLiteral(sent) ? withUniquePart(sent) : sent });
  const extracted = create.extract.find((x) => x.name === name);
  if (!extracted) edits.push({ kind: 'extract', operation: create.id, name, to: `$.data.${key}` });
  edits.push({ kind: 'body_field', operation: op.id, field, value: `{{${resource}.${name}}}` });
  if (edits.some((e) => edited.has(targetOf(e)))) return undefined;
  const how = `${chosen.sends ? 'sends' : 'may send (the description has it)'} \`${key}\`${extracted ? ' and extracts it' : ''}`;
  return {
    edits,
    why: `answered 404, and \`${field}\` held an e-mail that names nobody this run made: the e-mail of the ${resource} it creates (${create.id} ${how})`,
    what: `with ${field}: {{${resource}.${name}}}`,
  };
}

interface EmailCreate {
  create: Operation;
  /** the body field of the create that holds (or would hold) the e-mail */
  key: string;
  sends: boolean;
}

/**
 * The creates that send an e-mail, or whose description has an `email` string they do not
 * send; those at a path with no reference first (no parent to make), then those that send one.
 */
function emailCreates(project: Project, graph: ProjectGraph, op: Operation, fieldSchema: FieldSchema): EmailCreate[] {
  const out: EmailCreate[] = [];
  for (const c of project.operations.values()) {
    if (c.id === op.id || c.method !== 'POST' || writeTarget(graph, c).kind !== 'create') continue;
    const body = isPlainObject(c.body) ? c.body : {};
    const sent = topFields(body)
      .slice(0, MAX_FIELDS)
      .find(([, v]) => isEmail(v))?.[0];
    if (sent !== undefined) out.push({ create: c, key: sent, sends: true });
    else if (fieldSchema?.(c, 'email')?.type === 'string' && fieldOf(body, ['email']) === undefined) out.push({ create: c, key: 'email', sends: false });
  }
  const rank = (e: EmailCreate) => (e.create.path.includes('{{') ? 2 : 0) + (e.sends ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}
