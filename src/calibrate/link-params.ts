// A value the run's own answer hands out inside a link: an admin's reset answers
// `{"resetPasswordUrl": "https://…/reset-password?token=3f9a…"}`, and the operations that take
// that token (`POST /auth/reset/password {"token": "{{secret.RESET_TOKEN}}"}`, refused or not
// sent for want of the secret; `GET /auth/reset/validate`, answered 401 "Token was not valid")
// are red where a person would copy it over. Calibrate extracts the link's parameter from the
// answer (a regular expression over the one field that holds it) and sends it in their place:
// proposed only once a try with both is accepted. A link's parameter fits a consumer that wants
// it by that name, and whose path shares a word with the link's (`reset`): nothing else is
// guessed. Only a credential is taken (its extraction is named as one, so no output shows it),
// and an extraction that would make its operation a create (docs/format.md#ownership) is never
// proposed.
import { parseTemplate, writeTarget } from '../graph/index.js';
import type { FlowResponse } from '../http/index.js';
import { escapeRegExp, isPlainObject, namesIssuedCredential, type Operation, type Project } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';
import { observedOf } from './diagnose.js';
import { graphOf, targetOf, withEdits } from './model.js';
import { proposeSearch, searchAccepted, statusOf, type SearchContext } from './repair.js';
import type { Edit, Proposal } from './types.js';

/** Bounds on what is read of the answers (untrusted): bytes, nodes, depth, links, consumers. */
const MAX_BODY = 256 * 1024;
const MAX_NODES = 2_000;
const MAX_DEPTH = 8;
const MAX_LINKS = 20;
const MAX_CONSUMERS = 10;
/**
 * A parameter's value that can be a credential (a random string, a bcrypt hash `$2b$10$…/…`)
 * and reads the same in the link as decoded: no `%` escape, no `+` (a space), no `&` or `#`.
 */
const CHARS = "A-Za-z0-9._~$!'()*,;:@/-";
const VALUE = new RegExp(`^[${CHARS}]{8,512}$`);
const NAME = /^[A-Za-z_][\w-]{0,40}$/;

interface Link {
  producer: Operation;
  /** the JSON key whose string holds the link */
  key: string;
  param: string;
  /** the words of the link's path (`/reset-password` -> reset, password) */
  words: Set<string>;
}

interface Want {
  op: Operation;
  param: string;
  /** a body field given from outside (`{{secret.RESET_TOKEN}}`), or a query parameter the answer asks for */
  place: 'body' | 'query';
  why: string;
}

/**
 * After a round: each operation that wants a value a link of another operation's answer carries
 * (by the parameter's name), tried with that value extracted and sent; proposed where accepted.
 * `tried` holds each consumer tried this calibration (once each).
 */
export async function proveLinkParams(
  model: Project,
  results: readonly OperationResult[],
  responses: ReadonlyMap<string, FlowResponse>,
  ctx: SearchContext,
  tried: Set<string>,
): Promise<{ proposals: Proposal[]; proven: Set<string> }> {
  const out = { proposals: [] as Proposal[], proven: new Set<string>() };
  const links = linksIn(model, results, responses);
  if (!links.length) return out;
  const params = new Set(links.map((l) => l.param.toLowerCase()));
  for (const want of wanted(model, results, responses, params).slice(0, MAX_CONSUMERS)) {
    if (tried.has(want.op.id)) continue;
    const fits = links.filter((l) => l.param.toLowerCase() === want.param.toLowerCase() && l.producer.id !== want.op.id && shares(l.words, want.op.path));
    if (new Set(fits.map((l) => `${l.producer.id} ${l.key}`)).size !== 1) continue;
    // the extraction another consumer proved this round is in every try already (ctx.pending)
    const edits = editsFor(model, want, fits[0])?.filter((e) => !ctx.pending.some((p) => samePending(p, e)));
    if (!edits || edits.some((e) => ctx.edited.has(targetOf(e)))) continue;
    tried.add(want.op.id);
    const link = fits[0];
    const said = `${want.why}; ${link.producer.id}'s answer holds a link with \`?${link.param}=\` in \`${link.key}\``;
    const search = await searchAccepted(ctx, want.op.id, edits, [said]);
    if (!search.ok || !search.last) continue;
    proposeSearch(out, ctx, want.op.id, search, observedOf(model, search.last), `then ${statusOf(search.last) ?? 'passed'} with it`);
    out.proven.add(want.op.id);
  }
  return out;
}

function samePending(p: Edit, e: Edit): boolean {
  return p.kind === 'extract' && e.kind === 'extract' && targetOf(p) === targetOf(e) && p.to === e.to;
}

/** The links with a query parameter in the answers of the operations that passed this round. */
function linksIn(model: Project, results: readonly OperationResult[], responses: ReadonlyMap<string, FlowResponse>): Link[] {
  const out: Link[] = [];
  for (const r of results) {
    const producer = model.operations.get(r.operation);
    const res = responses.get(r.operation);
    if (r.status !== 'passed' || !producer || !res || res.body.length > MAX_BODY || !/json/i.test(String(res.headers['content-type'] ?? ''))) continue;
    const text = res.text();
    let json: unknown;
    try {
      json = res.json();
    } catch {
      continue;
    }
    let budget = MAX_NODES;
    const walk = (v: unknown, depth: number): void => {
      if (!v || typeof v !== 'object' || depth > MAX_DEPTH) return;
      for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
        if (--budget < 0 || out.length >= MAX_LINKS) return;
        if (typeof child !== 'string') walk(child, depth + 1);
        // the link as the body spells it (`\\/` escapes would stop the regular expression that reads it)
        else if (typeof k === 'string' && new RegExp(`"${escapeRegExp(k)}"\\s*:`).test(text) && text.includes(child))
          for (const [param, words] of paramsOf(child)) out.push({ producer, key: k, param, words });
      }
    };
    walk(json, 0);
  }
  return out;
}

/** A link's query parameters whose values can be a credential, with the words of its path. */
function paramsOf(text: string): Array<[string, Set<string>]> {
  if (text.length > 2048 || !/^(?:https?:\/\/|\/)/i.test(text) || !text.includes('?')) return [];
  let url: URL;
  try {
    url = new URL(text, 'http://link.invalid');
  } catch {
    return [];
  }
  const words = wordsOf(url.pathname);
  return [...url.searchParams].filter(([name, value]) => NAME.test(name) && VALUE.test(value)).map(([name]) => [name, words]);
}

function wordsOf(path: string): Set<string> {
  return new Set(
    path
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 4),
  );
}

function shares(words: ReadonlySet<string>, path: string): boolean {
  return [...wordsOf(path.replace(/\{\{[^}]*\}\}/g, '/'))].some((w) => words.has(w));
}

/**
 * What each red operation wants of `params` (lower-case) by name: a top body field given from
 * outside (a secret or a variable) when the operation failed or was not sent; a query parameter
 * when a 400, 401, 403 or 422 answer names it and the request sent none by that name.
 */
function wanted(model: Project, results: readonly OperationResult[], responses: ReadonlyMap<string, FlowResponse>, params: ReadonlySet<string>): Want[] {
  const out: Want[] = [];
  for (const r of results) {
    const op = model.operations.get(r.operation);
    if (r.status !== 'failed' || !op) continue;
    const body = isPlainObject(op.body) ? op.body : {};
    const given = Object.entries(body).filter((e): e is [string, string] => givenFromOutside(e[1]));
    const status = statusOf(r);
    for (const [field, value] of given)
      if (params.has(field.toLowerCase()))
        out.push({ op, param: field, place: 'body', why: `\`${field}\` is ${value}, ${status ? `answered ${status}` : (r.error?.code ?? 'not sent')}` });
    if (given.length || (status !== 400 && status !== 401 && status !== 403 && status !== 422)) continue;
    const text = responses.get(r.operation)?.text().slice(0, 2048) ?? '';
    const sent = new Set(
      [...Object.keys(op.queryParams), ...Object.keys(body), ...new URLSearchParams(op.path.split('?')[1] ?? '').keys()].map((k) => k.toLowerCase()),
    );
    for (const param of params)
      if (!sent.has(param) && new RegExp(`\\b${escapeRegExp(param)}\\b`, 'i').test(text))
        out.push({ op, param, place: 'query', why: `answered ${status}, naming \`${param}\`` });
  }
  return out;
}

/** `{{secret.X}}` or `{{env.x}}`, alone: a value the user was to give. */
function givenFromOutside(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const parts = parseTemplate(v);
  return parts.length === 1 && parts[0].kind === 'ref' && (parts[0].expr.kind === 'secret' || parts[0].expr.kind === 'env');
}

/**
 * The producer's extraction of the parameter (named after the consumer's resource: `reset_token`)
 * and the consumer's reference to it; undefined when the extraction would make the producer a
 * create, or the name is taken by another extraction.
 */
function editsFor(model: Project, want: Want, link: Link): Edit[] | undefined {
  const name = want.op.resource === want.param ? want.param : `${want.op.resource}_${want.param}`;
  // it goes where a secret stood, or where a refusal asked for it: extracted under a credential
  // name (`reset_token`), the runner hides it from every output; a `?state=` or `?page=` is none
  if (!namesIssuedCredential(name)) return undefined;
  const amp = '(?:[?&]|\\\\u0026)';
  const to = `"${escapeRegExp(link.key)}"\\s*:\\s*"[^"]*?${amp}${escapeRegExp(link.param)}=([${CHARS}]+)`;
  // extracted already, as an earlier calibrate proposed it for another operation: only the reference is new
  const have = link.producer.extract.find((x) => x.name === name);
  if (have && (have.source !== 'regex' || have.path !== to)) return undefined;
  const extract: Edit = { kind: 'extract', operation: link.producer.id, name, to, source: 'regex' };
  const before = writeTarget(graphOf(model), link.producer).kind;
  const after = writeTarget(graphOf(withEdits(model, [extract])), link.producer).kind;
  if (after === 'create' && before !== 'create') return undefined;
  const ref = `{{${link.producer.resource}.${name}}}`;
  const use: Edit =
    want.place === 'body'
      ? { kind: 'body_field', operation: want.op.id, field: want.param, value: ref }
      : { kind: 'query_param', operation: want.op.id, name: link.param, value: ref };
  return have ? [use] : [extract, use];
}
