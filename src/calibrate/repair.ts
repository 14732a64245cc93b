// The search behind a 4xx where a 2xx is expected: each answer says what to add next (an actor
// for a 401/403, the fields a 400/422 names); the edit is made in memory and the operation
// tried again on a fresh runner, a few times. The edits are kept only once a try is accepted.
import { keptUnique, withUniquePart, type Operation, type Project, type TemplateValue } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';
import type { FlowResponse } from '../http/index.js';
import { A_DAY_AHEAD, bodyFieldsNamed, exampleFields, requiredBody, sendsBody, staleDates } from './body.js';
import { bodyLinks, namedReference, resourceRef } from './body-links.js';
import { madeEmail } from './emails.js';
import { namedFields } from './error-fields.js';
import { linkEdits, unproducedId } from './links.js';
import { producerDates } from './producer-dates.js';
import { fieldOf, otherHeaderForm, targetOf, withEdits } from './model.js';
import { missingQuery, type QueryCandidate } from './query.js';
import type { DeclaredQuery, Edit, Proposal } from './types.js';
import { isLiteral, madeUnique, quotedUnique } from './unique.js';
import { valueFor } from './values.js';

export interface SearchContext {
  project: Project;
  /** run one operation (and its prerequisites) on a fresh runner over `project`; `purpose` names the try in the report */
  tryRun(project: Project, operation: string, purpose: string): Promise<OperationResult>;
  /** targets already edited (an actor's header form applies to all its operations) */
  edited: Set<string>;
  /** the edits proposed earlier this round: a try includes them */
  pending: Edit[];
  /** whether a text is (or holds) a secret or a value learned at login: never written into an edit */
  isSecret?: (text: string) => boolean;
  /** this round's answers, by operation: a producer's answer links an id a 404 shows missing */
  responses?: ReadonlyMap<string, FlowResponse>;
  /** the schema the description gives a body field (--openapi), for the value proposed */
  fieldSchema?: (op: Operation, field: string) => Record<string, unknown> | undefined;
  /** the query parameters the description declares for an operation (--openapi) */
  queryParams?: (op: Operation) => DeclaredQuery[];
}

/** Tries per operation in one round: each adds what the last answer asked for (a login, a field). */
const MAX_TRIES = 4;
/** Literals made run-unique one at a time after a 409. */
const MAX_UNIQUE = 4;
/** Actors tried for one refusal (each with its header in both forms at most). */
const MAX_ACTORS = 8;
/** Query parameters tried one at a time after a 400/422 (then those together, once). */
const MAX_QUERY = 3;

const ownExchange = (r: OperationResult) => r.exchanges.filter((x) => x.purpose === r.operation && x.response).at(-1);
export const statusOf = (r: OperationResult) => ownExchange(r)?.response?.status;
export const ownHeaders = (r: OperationResult) => ownExchange(r)?.response?.headers ?? {};
const is2xx = (s: number | undefined) => s !== undefined && s >= 200 && s < 300;

/** The server accepted the request: it passed (a refusal the description expects included), or answered 2xx. */
export const accepted = (r: OperationResult) => r.status === 'passed' || is2xx(statusOf(r));

export interface Search {
  ok: boolean;
  /** the edits added, in order (with `start`) */
  steps: Edit[];
  /** one clause per step: what the answer said */
  said: string[];
  /** the last try (or `first`) */
  last?: OperationResult;
  /** why a try could not be sent at all (an actor's secret not given: E_SECRET_MISSING) */
  unsent: string[];
}

/**
 * From `start` (edits already chosen, e.g. a link) and `first` (the answer without them, when
 * there is one), add what each answer asks for until a try is accepted or nothing more is asked.
 */
export async function searchAccepted(ctx: SearchContext, operation: string, start: Edit[], said: string[], first?: OperationResult): Promise<Search> {
  const steps = [...start];
  const clauses = [...said];
  const tryWith = (what: string) => ctx.tryRun(withEdits(ctx.project, [...ctx.pending, ...steps]), operation, `try ${operation} ${what}`);
  const unsent: string[] = [];
  let last = first ?? (await tryWith(clauses.join(', ') || 'again'));
  for (let i = 0; i < MAX_TRIES; i++) {
    if (accepted(last)) return { ok: true, steps, said: clauses, last, unsent };
    const model = withEdits(ctx.project, [...ctx.pending, ...steps]);
    const next = await nextStep(ctx, model, operation, last, unsent);
    if (!next) break;
    // a field tried again (a word, then a map): the later value replaces the earlier
    const replaced = new Set(next.edits.map(targetOf));
    steps.splice(0, steps.length, ...steps.filter((e) => !replaced.has(targetOf(e))), ...next.edits);
    clauses.push(next.why);
    last = next.tried ?? (await tryWith(next.what));
  }
  return { ok: accepted(last), steps, said: clauses, last, unsent };
}

/**
 * Proposes each edit of an accepted search not proposed yet (and counts it as pending for the
 * round's next tries); a producer's extraction is its own proposal, proven by `id`.
 */
export function proposeSearch(
  out: { proposals: Proposal[] },
  ctx: SearchContext,
  id: string,
  search: { steps: Edit[]; said: string[] },
  observed: Proposal['observed'],
  then: string,
): void {
  const because = `${search.said.join('; ')}; ${then}`;
  for (const edit of search.steps) {
    if (ctx.edited.has(targetOf(edit))) continue;
    ctx.edited.add(targetOf(edit));
    ctx.pending.push(edit);
    const own = edit.kind === 'extract' && edit.operation !== id;
    out.proposals.push({ edit, operation: own ? edit.operation : id, observed, why: own ? `${because} (proven by ${id})` : because });
  }
}

/** One step of the search: the edits, what the answer said, the try's name, and the try itself when it was made. */
type Step = { edits: Edit[]; why: string; what: string; tried?: OperationResult };

/** What the answer asks for next: the edits (and the try that proved an actor), or nothing. */
async function nextStep(ctx: SearchContext, model: Project, operation: string, last: OperationResult, unsent: string[]): Promise<Step | undefined> {
  const op = model.operations.get(operation)!;
  const status = statusOf(last);
  if ((status === 401 || status === 403) && !op.actor) {
    for (const actor of [...model.actors.values()].slice(0, MAX_ACTORS)) {
      const as: Edit = { kind: 'actor', operation, to: actor.id };
      const form = otherHeaderForm(actor);
      for (const edits of form && !ctx.edited.has(targetOf(form)) ? [[as], [as, form]] : [[as]]) {
        const what = `as ${actor.id}${edits.length > 1 ? ` with ${form!.header}: ${form!.to}` : ''}`;
        const tried = await ctx.tryRun(withEdits(model, edits), operation, `try ${operation} ${what}`);
        const got = statusOf(tried);
        // nothing sent: the actor's credentials are not given, which is no answer of the server's
        const secret = tried.error?.code === 'E_SECRET_MISSING' || tried.error?.details?.cause === 'E_SECRET_MISSING';
        if (secret && !unsent.some((u) => u.startsWith(`${actor.id}: `))) unsent.push(`${actor.id}: E_SECRET_MISSING (${tried.error!.message})`);
        // a 400/422 (any answer but a refusal) as the actor: the login was accepted
        if (got !== undefined && got !== 401 && got !== 403 && got < 500)
          return { edits, why: `answered ${status} without an actor, and ${got} ${what} (the login was accepted)`, what, tried };
      }
    }
    return undefined;
  }
  // the answer quotes a value the import made run-unique: the input's own literal names something that exists
  const excerpt = ownExchange(last)?.response?.body ?? '';
  // query parameters the description declares and the request does not send: those a 400/422
  // names first, before any body field; the others once nothing else is asked for
  const queries = (status === 400 || status === 422) && ctx.queryParams ? missingQuery(model, op, ctx.queryParams(op), excerpt, ctx.edited) : [];
  const queried = queries.some((q) => q.named);
  if (queried) {
    const step = await queryStep(ctx, model, op, status!, queries);
    if (step) return step;
  }
  if (sendsBody(op) && status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403) {
    const quoted = quotedUnique(op.body, excerpt).filter((q) => !ctx.edited.has(`${operation} body ${q.field}`));
    if (quoted.length)
      return {
        edits: quoted.map((q) => ({ kind: 'body_field', operation, field: q.field, value: q.literal })),
        why: `answered ${status} quoting ${quoted.map((q) => `\`${q.field}\``).join(', ')} as sent, with its run-unique part`,
        what: `with ${quoted.map((q) => `${q.field}: ${q.literal}`).join(', ')}`,
      };
  }
  // a 409 to a create: one of its literals is taken (a second run of the same body); each made run-unique in turn
  if (status === 409 && op.method === 'POST') {
    for (const { field, value } of madeUnique(op.body).slice(0, MAX_UNIQUE)) {
      if (ctx.edited.has(`${operation} body ${field}`)) continue;
      const edits: Edit[] = [{ kind: 'body_field', operation, field, value }];
      const what = `with ${field} run-unique`;
      const tried = await ctx.tryRun(withEdits(model, edits), operation, `try ${operation} ${what}`);
      if (accepted(tried)) return { edits, why: `answered 409, and ${statusOf(tried)} ${what}`, what, tried };
    }
    return undefined;
  }
  // an id given from outside, missing: linked to what its producer answered this round
  if (ctx.responses && (status === 404 || (status === 403 && unproducedId(model, operation)))) {
    const { edits, why } = linkEdits(model, operation, ctx.responses, [], ctx.isSecret);
    const fresh = edits.filter((e) => !ctx.edited.has(targetOf(e)));
    if (fresh.some((e) => e.kind === 'path_ref')) return { edits: fresh, why: why.join('; '), what: 'with the produced id(s)' };
    return sendsBody(op) && status === 404 ? (linkedBody(ctx, model, op, status) ?? madeEmail(model, op, ctx.edited, ctx.fieldSchema)) : undefined;
  }
  // a body only where the method sends one: a GET's named field is a parameter, a question;
  // a refused GET of what a create made with an expiry that has passed: that date moved ahead
  const moved = !sendsBody(op) && (status === 400 || status === 422) ? producerDates(model, op, status, ctx.edited) : undefined;
  if (moved) return moved;
  if (!sendsBody(op)) return !queried && queries.length && !namedFields(excerpt).length ? queryStep(ctx, model, op, status!, queries) : undefined;
  if (status === 415 && op.body === undefined) {
    const value = requiredBody(op, ctx.fieldSchema);
    const fields = value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
    const why = `answered 415 to a ${op.method} without a body${fields.length ? `; the description requires ${fields.map((f) => `\`${f}\``).join(', ')}` : ''}`;
    return { edits: [{ kind: 'body', operation, value }], why, what: 'with a JSON body' };
  }
  if (status === 400 || status === 422) {
    if (op.body !== undefined && (!op.body || typeof op.body !== 'object' || Array.isArray(op.body))) return undefined;
    const fields = bodyFieldsNamed(op, excerpt, ctx.fieldSchema);
    const named = fields.filter((f) => fieldOf(op.body, f.split('.')) === undefined);
    if (named.length) {
      // a field the description does not know that names a resource of the project: its id
      const refs = named.map((f) => (ctx.fieldSchema?.(op, f) ? undefined : namedReference(model, op, f)));
      const edits: Edit[] = named.map(
        (f, i) => refs[i]?.edit ?? { kind: 'body_field', operation, field: f, value: createValue(op, f, valueFor(f, ctx.fieldSchema?.(op, f))) },
      );
      const said = named.map((f, i) => {
        const ref = refs[i];
        return ref ? `\`${f}\`, which names the resource \`${ref.resource}\`: its id as \`${ref.edit.field}\`` : `\`${f}\``;
      });
      return {
        edits,
        why: `answered ${status} naming ${said.join(', ')}`,
        what: `with ${edits.flatMap((e) => (e.kind === 'body_field' ? [e.field] : [])).join(', ')}`,
      };
    }
    // named again after this search gave it a word, with no schema to say its type: a map (an
    // envelope such as `data` is the commonest field a word does not fit)
    const base = ctx.project.operations.get(operation)?.body;
    const guessed = fields.filter((f) => {
      const value = fieldOf(op.body, f.split('.'));
      // a word this search gave it (a builtin such as `{{$.faker.word}}`), not a reference to a resource
      return !ctx.fieldSchema?.(op, f) && typeof value === 'string' && !/^\{\{\s*[^$\s]/.test(value) && fieldOf(base, f.split('.')) === undefined;
    });
    if (guessed.length) {
      const edits: Edit[] = guessed.map((f) => ({ kind: 'body_field', operation, field: f, value: {} }));
      const list = guessed.map((f) => `\`${f}\``).join(', ');
      return { edits, why: `answered ${status} naming ${list} again, given a word: a map`, what: `with ${guessed.join(', ')} as a map` };
    }
    // named again, sent: a field named after a resource (`environments`) takes the run's own one
    const linked = fields.flatMap((f): Edit[] => {
      const value = fieldOf(op.body, [f]);
      const ref = value === undefined || hasRef(value) ? undefined : resourceRef(model, op, f, true);
      if (!ref || ctx.edited.has(`${operation} body ${f}`)) return [];
      const list = Array.isArray(value) || ctx.fieldSchema?.(op, f)?.type === 'array';
      return [{ kind: 'body_field', operation, field: f, value: list ? [ref] : ref }];
    });
    if (linked.length) {
      const list = linked.map((e) => `\`${e.kind === 'body_field' ? e.field : ''}\``).join(', ');
      return { edits: linked, why: `answered ${status} naming ${list} again, named after a resource of the project`, what: `with ${list} from this run` };
    }
    // named, and sent as a literal: a value that is taken, which some servers answer with a
    // 422 ("Identifier has already been taken"), not a 409; tried once with a run-unique part
    const taken = fields.filter((f) => !ctx.edited.has(`${operation} body ${f}`) && isLiteral(fieldOf(op.body, f.split('.'))));
    if (taken.length && taken.length === fields.length) {
      const edits: Edit[] = taken.map((f) => ({ kind: 'body_field', operation, field: f, value: withUniquePart(fieldOf(op.body, f.split('.')) as string) }));
      const list = taken.map((f) => `\`${f}\``).join(', ');
      return {
        edits,
        why: `answered ${status} naming ${list}, which the body sends as a literal (a value that is taken?)`,
        what: `with ${taken.join(', ')} run-unique`,
      };
    }
  }
  // a 400/422 that names no field, or a 5xx to a body this search made (`{}`: "empty update"):
  // the description's own examples, where the body has nothing (or an empty map or list)
  if (status === 400 || status === 422 || (status !== undefined && status >= 500)) {
    const examples = exampleFields(op, ctx.fieldSchema).filter((e) => !ctx.edited.has(`${operation} body ${e.field}`));
    if (examples.length) {
      const edits: Edit[] = examples.map((e) => ({ kind: 'body_field', operation, field: e.field, value: e.value }));
      const fields = examples.map((e) => `\`${e.field}\``).join(', ');
      return { edits, why: `answered ${status} naming no field; the description gives examples of ${fields}`, what: `with the examples of ${fields}` };
    }
    const found = (status < 500 ? movedDates(ctx, op, status) : undefined) ?? linkedBody(ctx, model, op, status);
    if (found || queried || !queries.length || bodyFieldsNamed(op, excerpt, ctx.fieldSchema).length) return found;
    return queryStep(ctx, model, op, status, queries);
  }
  return undefined;
}

/**
 * A literal a POST sends where a server keeps values unique (`username`, an e-mail) gets a
 * run-unique part, as the import gives it: a create that runs twice (a second run, or `force`)
 * must not send the same one.
 */
function createValue(op: Operation, field: string, value: TemplateValue): TemplateValue {
  return op.method === 'POST' && isLiteral(value) && keptUnique(field.split('.').at(-1)!, value) ? withUniquePart(value) : value;
}

/** A value holding a reference (`{{environment.name}}`, or a list with one): the run's already. */
const hasRef = (v: unknown): boolean => (Array.isArray(v) ? v.some(hasRef) : typeof v === 'string' && v.includes('{{'));

/**
 * A 400/422 to a request that does not send query parameters the description declares: each
 * tried alone (those the answer names first), then together once. The first try accepted is
 * the step; else the first whose answer is a refusal or a 5xx (the server got further: the
 * search and the other actors go on from it); else nothing.
 */
async function queryStep(ctx: SearchContext, model: Project, op: Operation, status: number, candidates: QueryCandidate[]): Promise<Step | undefined> {
  const sets = candidates.slice(0, MAX_QUERY).map((c) => [c]);
  if (candidates.length > 1) sets.push(candidates.slice(0, MAX_QUERY * 2));
  const named = candidates.filter((c) => c.named).map((c) => `\`${c.name}\``);
  const said = `answered ${status} ${named.length ? `naming ${named.join(', ')}` : 'naming no field'}, and the description declares query parameter(s) not sent`;
  let further: Step | undefined;
  for (const set of sets) {
    const edits: Edit[] = set.map((c) => ({ kind: 'query_param', operation: op.id, name: c.name, value: c.value }));
    const what = `with ?${set.map((c) => `${c.name}=${typeof c.value === 'string' ? c.value : JSON.stringify(c.value)}`).join('&')}`;
    const tried = await ctx.tryRun(withEdits(model, edits), op.id, `try ${op.id} ${what}`);
    if (accepted(tried)) return { edits, why: `${said}: ${what}`, what, tried };
    const got = statusOf(tried);
    if (!further && got !== undefined && (got === 401 || got === 403 || got >= 500)) further = { edits, why: `${said}: ${got} ${what}`, what, tried };
  }
  return further;
}

/**
 * A 400/422 with the fields it could name all sent: a date the body holds that has passed (an
 * expiry the description's example set years ago) moved a day ahead of the request.
 */
function movedDates(ctx: SearchContext, op: Operation, status: number): { edits: Edit[]; why: string; what: string } | undefined {
  const stale = staleDates(op).filter((f) => !ctx.edited.has(`${op.id} body ${f}`));
  if (!stale.length) return undefined;
  const edits: Edit[] = stale.map((field) => ({ kind: 'body_field', operation: op.id, field, value: A_DAY_AHEAD }));
  const fields = stale.map((f) => `\`${f}\``).join(', ');
  return { edits, why: `answered ${status}, and ${fields} held a date that has passed`, what: `with ${fields} a day ahead` };
}

/**
 * A 404, a 400/422 naming no field or a 5xx (a foreign key) to a body whose ids of other
 * resources are the description's examples: each the run's own (`{{strategy.id}}`).
 */
function linkedBody(ctx: SearchContext, model: Project, op: Operation, status: number): { edits: Edit[]; why: string; what: string } | undefined {
  const edits = bodyLinks(model, op, ctx.edited);
  if (!edits.length) return undefined;
  const fields = edits.map((e) => `\`${e.kind === 'body_field' ? e.field : ''}\``).join(', ');
  return {
    edits,
    why: `answered ${status}, and ${fields} held a literal (a description's example, an id from elsewhere), which names nothing this run made`,
    what: `with ${fields} from this run`,
  };
}
