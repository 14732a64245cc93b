// One failed (or empty-handed) operation -> the edits its response proves, or open questions.
// An edit that changes what is sent (actor, header form) is kept only when a try with it,
// on a fresh runner, gets a 2xx: the server accepted the request.
import { isFanOutPath } from '../response.js';
import type { FlowResponse } from '../response.js';
import type { Project } from '../../project/types.js';
import type { OperationResult } from '../types.js';
import { otherHeaderForm, withEdits } from './model.js';
import { fieldName, onePlace, requiredFields } from './search.js';
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
}

/** What the operation's own last exchange shows (not its login's). */
export function observedOf(project: Project, result: OperationResult): Observed {
  const op = project.operations.get(result.operation)!;
  const own = result.exchanges.filter((x) => x.purpose === result.operation && x.response).at(-1);
  return { method: op.method, path: op.path, url: own?.request.url, status: own?.response?.status, excerpt: own?.response?.body };
}

export function targetOf(e: Edit): string {
  return e.kind === 'header_form' ? `actor ${e.actor}` : e.kind === 'extract' ? `${e.operation} extract ${e.name}` : `${e.operation} ${e.kind}`;
}

const accepted = (r: OperationResult) => {
  const status = r.exchanges.filter((x) => x.purpose === r.operation && x.response).at(-1)?.response?.status;
  return status !== undefined && status >= 200 && status < 300;
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
    const name = String(error.details?.variable ?? '');
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
    // its actor's other form is proposed already (by another operation this round): the next round tells
    if (form && ctx.edited.has(targetOf(form))) return out;
    if (await tryHeaderForm(actual)) return out;
    // a refusal proves a status only where the description expects a refusal (a 404 that is a 403)
    if (op.expectStatus?.some((s) => s >= 400 && s < 500)) {
      propose({ kind: 'expect_status', operation: op.id, from: op.expectStatus, to: [actual] }, `answered ${actual} as ${op.actor}, where a client error was expected`);
    } else ask(`answered ${actual} as ${op.actor}, and no other standard form of its credential was accepted: the actor's credentials or permissions need a look`);
  } else if (actual === 400 || actual === 422) {
    const sent = sentFields(op.body);
    const named = requiredFields(observed.excerpt ?? '').filter((f) => !sent.has(f));
    if (named.length) ask(`the server answered ${actual} naming required body field(s) ${named.map((f) => `\`${f}\``).join(', ')}: give them a value in \`body\` (no response proves one)`);
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
    const place = json === undefined ? undefined : onePlace(json, field, isFanOutPath(path));
    if (place && place !== path) propose({ kind: 'extract', operation: op.id, name, from: path, to: place }, `\`${field}\` is at ${place} in the answer, and nowhere else`);
    else ask(`\`${name}\` (${path}) found nothing, and the answer has ${json === undefined ? 'no JSON body' : `\`${field}\` in ${place ? 'that place' : 'no single place'}`}: say where it is`);
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

  async function tryHeaderForm(status: number): Promise<boolean> {
    const actor = ctx.project.actors.get(op.actor!)!;
    const edit = otherHeaderForm(actor);
    if (!edit || ctx.edited.has(targetOf(edit))) return false;
    if (!accepted(await ctx.tryRun(withEdits(ctx.project, [edit]), op.id))) return false;
    propose(edit, `answered ${status} with ${edit.header}: ${edit.from}, and a 2xx with ${edit.to}`);
    return true;
  }
}

/** The top-level keys of a body map (the fields already sent). */
function sentFields(body: unknown): Set<string> {
  return new Set(body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []);
}
