// One failed (or empty-handed) operation -> the edits its response proves, or open questions.
// A status is proposed only in the class that was expected (2xx for 2xx, 4xx for 4xx): a
// failure where success is expected is a diagnosis (the login, the input, the id), never a
// new expectation. An edit that changes what is sent (actor, header form, body field) is kept
// only when a try with it, on a fresh runner, gets the request accepted.
import type { FlowResponse } from '../http/index.js';
import { isFanOutPath } from '../graph/index.js';
import { type Project, scalarText } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';
import { bodyFieldsNamed, sendsBody } from './body.js';
import { idDiagnosis, unproducedId } from './links.js';
import { answerMessage, loginQuestion, requestRefusal } from './login.js';
import { fieldOf, otherHeaderForm, targetOf, withEdits } from './model.js';
import { asOtherActor, type OtherActorContext } from './other-actor.js';
import { anotherInstance, anotherThanOwn, type AnotherInstance } from './another-instance.js';
import { accepted, ownHeaders, searchAccepted, statusOf, type Search } from './repair.js';
import { fieldName, onePlace, SECRET_PLACE } from './search.js';
import type { Edit, Observed, OpenQuestion, Proposal } from './types.js';

export interface Findings {
  proposals: Proposal[];
  questions: OpenQuestion[];
}

export interface DiagnoseContext extends OtherActorContext {
  /** the operation's latest full answer, whatever its status (for the field search) */
  response?: FlowResponse;
  /** the targets edited in the model this round ran (edited, less this round's proposals) */
  applied: ReadonlySet<string>;
}

/** What the operation's own last exchange shows (not its login's). */
export function observedOf(project: Project, result: OperationResult): Observed {
  const op = project.operations.get(result.operation)!;
  const own = result.exchanges.filter((x) => x.purpose === result.operation && x.response).at(-1);
  return { method: op.method, path: op.path, url: own?.request.url, status: own?.response?.status, excerpt: own?.response?.body };
}

/** The status class: 2 for 2xx …; no expect_status means any 2xx. */
const classOf = (s: number) => Math.floor(s / 100);

export async function diagnose(result: OperationResult, ctx: DiagnoseContext): Promise<Findings> {
  const out: Findings = { proposals: [], questions: [] };
  const op = ctx.project.operations.get(result.operation)!;
  const observed = observedOf(ctx.project, result);
  /** `own`: the answer of the edited operation's own try, which proves it (else this operation's answer does) */
  const propose = (edit: Edit, why: string, own?: Observed) => {
    if (ctx.edited.has(targetOf(edit))) return;
    ctx.edited.add(targetOf(edit));
    ctx.pending.push(edit);
    // another operation's edit (a producer's extraction) is its own proposal, proven by this one
    const other = 'operation' in edit && edit.operation !== op.id ? edit.operation : undefined;
    out.proposals.push({ edit, operation: other ?? op.id, observed: own ?? observed, why: other && !own ? `${why} (proven by ${op.id})` : why });
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
  const expected = op.expectStatus?.length ? op.expectStatus : [200];
  const sameClass = expected.every((s) => classOf(s) === classOf(actual));
  if (actual >= 500) {
    // a write's body may name what does not exist (a foreign key): the search's links, only once accepted
    const found = sendsBody(op) ? await searchAccepted(ctx, op.id, [], [], result) : undefined;
    if (found?.ok) proposeFound(found);
    else if ((found && (await notOwn(found))) || (await anotherOne(actual))) {
      // the body's id was another instance of the path's resource
    } else if (!(await otherActor(actual))) ask(`the server failed (${actual}); a 5xx proves nothing about the description`);
  } else if (!sameClass && (await anotherOne(actual))) {
    // the body's literal was a missing instance of the path's resource: another of the run's own
  } else if (actual === 403 && op.actor && !sameClass && unproducedId(ctx.project, op.id)) {
    // the id nobody produced is the likelier cause than the actor's permissions (linked by prove-links.ts when it can)
    ask(idDiagnosis(ctx.project, op.id, observed.excerpt, actual));
  } else if ((actual === 401 || actual === 403) && op.actor) {
    await refusedAsActor(actual);
  } else if (sameClass) {
    propose({ kind: 'expect_status', operation: op.id, from: op.expectStatus, to: [actual] }, `answered ${actual}, a status of the class expected`);
  } else if (classOf(actual) === 4 && expected.every((s) => classOf(s) === 2)) {
    await repair(actual);
  } else {
    ask(`answered ${actual} where ${expected.join(', ')} is expected: a status of another class is never written in as the expectation`);
  }
  return out;

  /** A 403 whose message is about the request, not about who sends it: no login changes it. */
  function refusal(message: string): string {
    return `answered 403 as ${op.actor}${ctx.project.actors.size > 1 ? ' and as each other actor of the project' : ''}, saying "${message}": the server refuses the request itself, not who sends it (no login or credential changes that); whether it belongs in the project is a person's call`;
  }

  /** The edits of a search a try accepted, each with what the answers said. */
  function proposeFound(found: Search) {
    const why = `${found.said.join('; ')}; then ${statusOf(found.last!) ?? 'passed'}`;
    for (const e of found.steps) propose(e, why);
  }

  /** A 4xx where a 2xx is expected: the search (repair.ts), then its edits, else the last answer as the diagnosis. */
  async function repair(status: number) {
    const found = await searchAccepted(ctx, op.id, [], [], result);
    if (found.ok) return proposeFound(found);
    if (await notOwn(found)) return;
    const last = found.last ?? result;
    const lastStatus = statusOf(last) ?? status;
    const tried = found.said.length ? ` (tried: ${found.said.join('; ')}; last answer ${lastStatus})` : '';
    const excerpt = observedOf(ctx.project, last).excerpt ?? '';
    const idMissing = (lastStatus === 403 || lastStatus === 404) && unproducedId(ctx.project, op.id);
    const refused = requestRefusal(lastStatus, excerpt);
    // what the search found it needs, sent as another actor
    if (!idMissing && (await otherActor(lastStatus, found.steps, found.said))) return;
    if (idMissing) {
      // an id given from outside that no run produced: the likelier cause than the login
      ask(`${idDiagnosis(ctx.project, op.id, excerpt, lastStatus)}${tried}`);
    } else if (found.unsent.length && (lastStatus === 401 || lastStatus === 403)) {
      ask(`answered ${lastStatus} without an actor, and its actor(s) could not be tried: ${found.unsent.join('; ')}${tried}`);
    } else if (op.actor && refused) {
      ask(`${refusal(refused)}${tried}`);
    } else if (lastStatus === 401 || lastStatus === 403) {
      const login = loginQuestion(ctx.project, lastStatus, ownHeaders(last));
      if (login.edit) propose(login.edit, login.why);
      ask(`${login.question}${tried}`);
    } else if (lastStatus === 400 || lastStatus === 422) {
      const named = bodyFieldsNamed(op, excerpt, ctx.fieldSchema);
      // every field it names is one the project sends: its value is refused ("Identifier is invalid")
      const refused = sendsBody(op) && named.length > 0 && named.every((f) => fieldOf(op.body, f.split('.')) !== undefined);
      const where = sendsBody(op) ? 'give them a value in `body`' : `a ${op.method} sends no body, so they are parameters: give them in \`query\` or the path`;
      const fields = named.map((f) => `\`${f}\``).join(', ');
      ask(
        refused
          ? `the server answered ${lastStatus} naming field(s) ${fields}, which the body sends: the value is refused, not missing: change it in \`body\`${tried}`
          : named.length
            ? `the server answered ${lastStatus} naming field(s) ${fields}${sendsBody(op) ? ', and no value tried was accepted' : ''}: ${where}${tried}`
            : `the server answered ${lastStatus} without naming a missing field: the request needs a change no response proves${tried}`,
      );
    } else if (lastStatus === 415) {
      ask(
        `answered 415 (the server does not take the body's media type)${op.body === undefined && sendsBody(op) ? ', and a JSON body tried was not accepted' : ''}: the body or its Content-Type needs a look${tried}`,
      );
    } else if (lastStatus === 404) {
      ask(`${idDiagnosis(ctx.project, op.id, excerpt)}${tried}`);
    } else ask(`answered ${lastStatus} where ${expected.join(', ')} is expected: a failure is never written in as the expectation${tried}`);
  }

  /** A 401/403 as the operation's actor: the other form of its header, else the expected refusal or a question. */
  async function refusedAsActor(actual: number) {
    const form = otherHeaderForm(ctx.project.actors.get(op.actor!)!);
    const formSettled = !form || ctx.edited.has(targetOf(form));
    // its actor's form was proposed this round (by another operation): the next round tells
    if (form && formSettled && !ctx.applied.has(targetOf(form))) return;
    let other: number | undefined;
    if (!formSettled) {
      const tried = await ctx.tryRun(withEdits(ctx.project, [...ctx.pending, form]), op.id, `try ${op.id} with ${form.header}: ${form.to}`);
      if (accepted(tried)) {
        propose(form, `answered ${actual} with ${form.header}: ${form.from}, and ${statusOf(tried)} with ${form.to}`);
        return;
      }
      other = statusOf(tried);
    }
    // A refusal proves a status only where the description expects a refusal (a 404 that is a
    // 403), and only when the header's form is not what decides it.
    if (op.expectStatus?.every((s) => classOf(s) === 4) && (other === undefined || other === actual)) {
      propose(
        { kind: 'expect_status', operation: op.id, from: op.expectStatus, to: [actual] },
        `answered ${actual} as ${op.actor}, where a client error was expected`,
      );
      return;
    }
    if (await otherActor(actual)) return;
    const refused = requestRefusal(actual, observed.excerpt ?? '');
    if (refused) return ask(refusal(refused));
    const formTried = other === undefined ? '' : `, and ${other} with the other standard form of its credential`;
    const passedAs = actual === 401 ? acceptedAs(op.actor!) : 0;
    if (!passedAs) return ask(`answered ${actual} as ${op.actor}${formTried}: the actor's credentials or permissions need a look`);
    // the actor's login works: what this 401 asks for is a credential of the request's own
    const says = answerMessage(observed.excerpt ?? '');
    ask(
      `answered 401 as ${op.actor}${formTried}${says ? `, saying ${JSON.stringify(says)}` : ''}, whose credentials ${passedAs} other operation(s) got past this round: it wants a credential of its own that the request does not send (a token from an e-mail or a link, a one-time code): give it where the API reads it (a query parameter, a header, a body field)`,
    );
  }

  /** How many other operations of this round answered 2xx as `actor`. */
  function acceptedAs(actor: string): number {
    let n = 0;
    for (const [id, res] of ctx.responses ?? []) if (id !== op.id && ctx.project.operations.get(id)?.actor === actor && classOf(res.status) === 2) n++;
    return n;
  }

  /**
   * A body value the answer names as a missing instance of the resource the path names: another
   * instance of the run's own (another-instance.ts), proposed when the try is accepted; and the
   * DELETE of what the write made, with that value, when its try is accepted too.
   */
  async function anotherOne(status: number): Promise<boolean> {
    const found = anotherInstance(ctx.project, op, status, observed.excerpt ?? '', ctx.edited);
    return found !== undefined && (await tryAnother(found, []));
  }

  /** A search not accepted that linked a body field to the instance its path names: another one instead. */
  async function notOwn(search: Search): Promise<boolean> {
    const found = anotherThanOwn(ctx.project, op, search.steps, ctx.edited);
    if (!found) return false;
    // what the search added after the link answered to the same value: not tried with it
    const steps = search.steps.slice(
      0,
      search.steps.findIndex((e) => targetOf(e) === targetOf(found.edit)),
    );
    const last = search.last && statusOf(search.last);
    return tryAnother({ ...found, why: `${search.said.join('; ')}${last ? `; then ${last}` : ''}: ${found.why}` }, steps);
  }

  /** The edit (with the search's other `steps`) tried, proposed once accepted; then the DELETEs of what it made. */
  async function tryAnother(found: AnotherInstance, steps: Edit[]): Promise<boolean> {
    const model = withEdits(ctx.project, [...ctx.pending, ...steps, found.edit]);
    const tried = await ctx.tryRun(model, op.id, `try ${op.id} ${found.what}`);
    if (!accepted(tried)) return false;
    for (const e of [...steps, found.edit]) propose(e, `${found.why}; then ${statusOf(tried) ?? 'passed'}`);
    for (const removal of found.removals) {
      const what = `with ${removal.edits.map((e) => (e.kind === 'path_ref' ? e.to : e.kind === 'depends_on' ? `after ${e.to}` : '')).join(', ')}`;
      const withRemoval = withEdits(model, removal.edits);
      const done = await ctx.tryRun(withRemoval, removal.operation, `try ${removal.operation} ${what}`);
      if (!accepted(done)) continue;
      const why = `${found.why}; then ${statusOf(tried) ?? 'passed'}, and ${removal.operation} ${what} answered ${statusOf(done) ?? 'passed'}`;
      for (const e of removal.edits) propose(e, why, observedOf(withRemoval, done));
    }
    return true;
  }

  /** Another actor of the project the operation passes as, proposed; false when none. */
  async function otherActor(status: number, start?: Edit[], said?: string[]): Promise<boolean> {
    const found = await asOtherActor(ctx, op.id, status, start, said);
    for (const e of found?.edits ?? []) propose(e, found!.why);
    return found !== undefined;
  }

  function fieldSearch(name: string, path: string) {
    let json: unknown;
    try {
      json = ctx.response?.json();
    } catch {
      json = undefined;
    }
    const field = fieldName(path) ?? name;
    const place = json === undefined ? undefined : onePlace(json, field, isFanOutPath(path), ctx.isSecret);
    // a list with no item is an answer, not a wrong path: nothing to say
    if (!place && isFanOutPath(path) && hasEmptyList(json)) return;
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
}

/** Whether the answer is, or holds, a list with no item (bounded: an answer is untrusted). */
function hasEmptyList(json: unknown, depth = 0): boolean {
  if (Array.isArray(json)) return json.length === 0 || (depth < 8 && json.slice(0, 100).some((v) => hasEmptyList(v, depth + 1)));
  if (!json || typeof json !== 'object' || depth >= 8) return false;
  return Object.values(json)
    .slice(0, 200)
    .some((v) => hasEmptyList(v, depth + 1));
}
