// One failed (or empty-handed) operation -> the edits its response proves, or open questions.
// An edit that changes what is sent (actor, header form) is kept only when a try with it,
// on a fresh runner, gets a 2xx: the server accepted the request.
import { isFanOutPath } from '../graph/index.js';
import type { FlowResponse } from '../http/index.js';
import { type Project, scalarText } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';
import { otherHeaderForm, withEdits } from './model.js';
import { fieldName, onePlace, requiredFields, SECRET_PLACE } from './search.js';
import type { Edit, Observed, OpenQuestion, Proposal } from './types.js';

export interface Findings {
  proposals: Proposal[];
  questions: OpenQuestion[];
}

export interface DiagnoseContext {
  project: Project;
  /** the operation's full response, when its status passed (for the field search) */
  response?: FlowResponse;
  /** run one operation (and its prerequisites) on a fresh runner over `project` */
  tryRun(project: Project, operation: string): Promise<OperationResult>;
  /** targets already edited (an actor's header form applies to all its operations) */
  edited: Set<string>;
  /** the targets edited in the model this round ran (edited, less this round's proposals) */
  applied: ReadonlySet<string>;
  /** whether a text is (or holds) a secret or a value learned at login: never written into an edit */
  isSecret?: (text: string) => boolean;
}

/** What the operation's own last exchange shows (not its login's). */
export function observedOf(project: Project, result: OperationResult): Observed {
  const op = project.operations.get(result.operation)!;
  const own = result.exchanges.filter((x) => x.purpose === result.operation && x.response).at(-1);
  return { method: op.method, path: op.path, url: own?.request.url, status: own?.response?.status, excerpt: own?.response?.body };
}

function targetOf(e: Edit): string {
  return e.kind === 'header_form' ? `actor ${e.actor}` : e.kind === 'extract' ? `${e.operation} extract ${e.name}` : `${e.operation} ${e.kind}`;
}

const statusOf = (r: OperationResult) => r.exchanges.filter((x) => x.purpose === r.operation && x.response).at(-1)?.response?.status;

/** The server accepted the request: it passed (a refusal the description expects included), or answered 2xx. */
const accepted = (r: OperationResult) => {
  const status = statusOf(r);
  return r.status === 'passed' || (status !== undefined && status >= 200 && status < 300);
};

export async function diagnose(result: OperationResult, ctx: DiagnoseContext): Promise<Findings> {
  const out: Findings = { proposals: [], questions: [] };
  const op = ctx.project.operations.get(result.operation)!;
  const observed = observedOf(ctx.project, result);
  const propose = (edit: Edit, why: string) => {
    if (ctx.edited.has(targetOf(edit))) return;
    ctx.edited.add(targetOf(edit));
    out.proposals.push({ edit, operation: op.id, observed, why });
  };
  const ask = (question: string) => out.questions.push({ operation: op.id, observed, question });

  if (result.status === 'passed') {
    // a fan-out extraction that found no item while the answer has the field: the path is wrong
    for (const spec of op.extract) {
      const got = result.extracted[spec.name];
      if (!isFanOutPath(spec.path) || !Array.isArray(got) || got.length) continue;
      fieldSearch(spec.name, spec.path);
    }
    return out;
  }
  const error = result.error;
  if (result.status !== 'failed') return out;
  if (!error) {
    ask(`failed without an error to read (${result.asserts.filter((a) => !a.pass).length} failed assert(s)): no response proves an edit`);
    return out;
  }

  if (error.code === 'E_EXTRACT_FAILED') {
    const name = scalarText(error.details?.variable);
    const spec = op.extract.find((x) => x.name === name);
    if (spec) fieldSearch(spec.name, spec.path);
    else ask(`${error.code}: ${error.message}`);
    return out;
  }
  if (error.code !== 'E_STATUS_MISMATCH') {
    ask(`${error.code}: ${error.message} (no response proves an edit)`);
    return out;
  }
  const actual = Number(error.details?.actual);
  if (actual >= 500) {
    ask(`the server failed (${actual}); a 5xx proves nothing about the description`);
  } else if ((actual === 401 || actual === 403) && !op.actor) {
    await tryActors(actual);
  } else if (actual === 401 || actual === 403) {
    const form = otherHeaderForm(ctx.project.actors.get(op.actor!)!);
    const formSettled = !form || ctx.edited.has(targetOf(form));
    // its actor's form was proposed this round (by another operation): the next round tells
    if (form && formSettled && !model(form)) return out;
    const other = formSettled ? undefined : await tryHeaderForm(form, actual);
    if (other === 'accepted') return out;
    // A refusal proves a status only where the description expects a refusal (a 404 that is a
    // 403), and only when the header's form is not what decides it.
    if (op.expectStatus?.some((s) => s >= 400 && s < 500) && (other === undefined || other === actual)) {
      propose(
        { kind: 'expect_status', operation: op.id, from: op.expectStatus, to: [actual] },
        `answered ${actual} as ${op.actor}, where a client error was expected`,
      );
    } else
      ask(
        `answered ${actual} as ${op.actor}${other === undefined ? '' : `, and ${other} with the other standard form of its credential`}: the actor's credentials or permissions need a look`,
      );
  } else if (actual === 400 || actual === 422) {
    const sent = sentFields(op.body);
    const named = requiredFields(observed.excerpt ?? '').filter((f) => !sent.has(f));
    if (named.length)
      ask(
        `the server answered ${actual} naming required body field(s) ${named.map((f) => `\`${f}\``).join(', ')}: give them a value in \`body\` (no response proves one)`,
      );
    else ask(`the server answered ${actual} without naming a missing field: the request needs a change no response proves`);
  } else {
    propose({ kind: 'expect_status', operation: op.id, from: op.expectStatus, to: [actual] }, `answered ${actual}`);
  }
  return out;

  function fieldSearch(name: string, path: string) {
    let json: unknown;
    try {
      json = ctx.response?.json();
    } catch {
      json = undefined;
    }
    const field = fieldName(path) ?? name;
    const place = json === undefined ? undefined : onePlace(json, field, isFanOutPath(path), ctx.isSecret);
    if (place === SECRET_PLACE)
      ask(
        `\`${name}\` (${path}) found nothing, and the answer has \`${field}\` only under a key that is a secret or a value learned at login: say where it is`,
      );
    else if (place && place !== path)
      propose({ kind: 'extract', operation: op.id, name, from: path, to: place }, `\`${field}\` is at ${place} in the answer, and nowhere else`);
    else
      ask(
        `\`${name}\` (${path}) found nothing, and the answer has ${json === undefined ? 'no JSON body' : `\`${field}\` in ${place ? 'that place' : 'no single place'}`}: say where it is`,
      );
  }

  async function tryActors(status: number) {
    for (const actor of ctx.project.actors.keys()) {
      const edit: Edit = { kind: 'actor', operation: op.id, to: actor };
      if (accepted(await ctx.tryRun(withEdits(ctx.project, [edit]), op.id))) {
        propose(edit, `answered ${status} without an actor, and a 2xx as ${actor}`);
        return;
      }
    }
    ask(`answered ${status} without an actor, and no actor of the project was accepted`);
  }

  /** The header in its other form, tried once: 'accepted' (proposed), else the status it got. */
  async function tryHeaderForm(edit: Extract<Edit, { kind: 'header_form' }>, status: number): Promise<'accepted' | number | undefined> {
    const tried = await ctx.tryRun(withEdits(ctx.project, [edit]), op.id);
    if (!accepted(tried)) return statusOf(tried);
    propose(edit, `answered ${status} with ${edit.header}: ${edit.from}, and ${statusOf(tried)} with ${edit.to}`);
    return 'accepted';
  }

  /** Whether the model this round ran already has the actor's header in that form. */
  function model(form: Extract<Edit, { kind: 'header_form' }>): boolean {
    return ctx.applied.has(targetOf(form));
  }
}

/** The top-level keys of a body map (the fields already sent). */
function sentFields(body: unknown): Set<string> {
  return new Set(body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []);
}
