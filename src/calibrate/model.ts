// A copy of the project model with edits made, for the next round (or a single try) on a
// fresh runner: the loaded project itself is never changed.
import { isRawMap, type Actor, type ExtractSpec, type Operation, type Project, type TemplateValue } from '../project/index.js';
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import type { Edit } from './types.js';

/** Each model's graph, built once: a round's searches ask it of every refused write. */
const graphs = new WeakMap<Project, ProjectGraph>();

export function graphOf(project: Project): ProjectGraph {
  let graph = graphs.get(project);
  if (!graph) graphs.set(project, (graph = buildGraph(project)));
  return graph;
}

export function withEdits(project: Project, edits: readonly Edit[]): Project {
  const operations = new Map(project.operations);
  const actors = new Map(project.actors);
  for (const e of edits) {
    if (e.kind === 'header_form') {
      const a = actors.get(e.actor)!;
      actors.set(e.actor, withHeaderForm(a, e.place, e.header, e.to));
      continue;
    }
    // a login proposal has no credentials yet: nothing to try until the user gives them
    if (e.kind === 'login') continue;
    const op = operations.get(e.operation)!;
    if (e.kind === 'expect_status') operations.set(op.id, { ...op, expectStatus: e.to });
    else if (e.kind === 'extract') operations.set(op.id, { ...op, extract: withExtract(op, e.name, e.to, e.source) });
    else if (e.kind === 'body') operations.set(op.id, { ...op, body: e.value });
    else if (e.kind === 'body_field') operations.set(op.id, { ...op, body: withField(op.body, e.field.split('.'), e.value) });
    else if (e.kind === 'query_param') operations.set(op.id, { ...op, queryParams: { ...op.queryParams, [e.name]: e.value } });
    else if (e.kind === 'path_ref') operations.set(op.id, { ...op, path: op.path.split(e.from).join(e.to) });
    else if (e.kind === 'depends_on') operations.set(op.id, withDependency(op, e.to));
    else if (e.kind === 'force') operations.set(op.id, { ...op, force: true });
    else operations.set(op.id, { ...op, actor: e.to });
  }
  return { ...project, operations, actors };
}

/** `source`: the edit's (a regular expression); without it, an existing extraction keeps its own and a new one reads JSON. */
function withExtract(op: Operation, name: string, path: string, source?: ExtractSpec['source']): ExtractSpec[] {
  if (op.extract.some((x) => x.name === name)) return op.extract.map((x) => (x.name === name ? { ...x, path, source: source ?? x.source } : x));
  // a new extraction: located where --apply writes it
  return [...op.extract, { name, path, source: source ?? 'jsonpath', file: op.file, yamlPath: [...op.yamlPath, 'extract', name], loc: op.loc }];
}

/** The operation with `to` added to its `depends_on` (the graph reads the list as written, when it is one). */
function withDependency(op: Operation, to: string): Operation {
  const written = Array.isArray(op.raw.depends_on) ? (op.raw.depends_on as unknown[]) : op.dependsOn;
  if (written.includes(to)) return op;
  return { ...op, dependsOn: [...op.dependsOn, to], raw: { ...op.raw, depends_on: [...written, to] } };
}

/** `body` with the value at the path of keys (maps made on the way); a body that is not a map stays as it is. */
export function withField(body: TemplateValue | undefined, keys: string[], value: TemplateValue): TemplateValue | undefined {
  const isMap = (v: unknown): v is Record<string, TemplateValue> => isRawMap(v);
  if (body !== undefined && !isMap(body)) return body;
  const [key, ...rest] = keys;
  const map = body ?? {};
  return { ...map, [key]: rest.length ? (withField(isMap(map[key]) ? map[key] : undefined, rest, value) ?? value) : value };
}

/** The value at a dotted path of a body map; undefined when absent. */
export function fieldOf(body: TemplateValue | undefined, keys: string[]): TemplateValue | undefined {
  let at: unknown = body;
  for (const k of keys) at = at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[k] : undefined;
  return at as TemplateValue | undefined;
}

function withHeaderForm(a: Actor, place: 'inject' | 'api_key', header: string, value: string): Actor {
  if (place === 'inject') return { ...a, inject: { ...a.inject, headers: { ...a.inject.headers, [header]: value } } };
  return { ...a, auth: { ...a.auth!, options: { ...a.auth!.options, key: value } } };
}

const BEARER = /^Bearer\s+/i;

/**
 * The actor's credential in the other standard form, when it has one in Authorization: the
 * raw token gets `Bearer `, a `Bearer <token>` loses it. Only a template value ({{…}}) is
 * changed: the form of a literal is the user's.
 */
export function otherHeaderForm(a: Actor): Extract<Edit, { kind: 'header_form' }> | undefined {
  const flip = (v: TemplateValue | undefined) =>
    typeof v === 'string' && v.includes('{{') ? (BEARER.test(v) ? v.replace(BEARER, '') : `Bearer ${v}`) : undefined;
  for (const [header, value] of Object.entries(a.inject.headers)) {
    const to = header.toLowerCase() === 'authorization' ? flip(value) : undefined;
    if (to) return { kind: 'header_form', actor: a.id, place: 'inject', header, from: value as string, to };
  }
  const o = a.auth?.strategy === 'api_key' ? a.auth.options : undefined;
  const name = typeof o?.name === 'string' ? o.name : undefined;
  const location = typeof o?.location === 'string' ? o.location.toLowerCase() : 'header';
  if (o && name?.toLowerCase() === 'authorization' && location === 'header') {
    const to = flip(o.key);
    if (to) return { kind: 'header_form', actor: a.id, place: 'api_key', header: name, from: o.key as string, to };
  }
  return undefined;
}

/** What an edit changes, as a key: one edit per target. */
export function targetOf(e: Edit): string {
  switch (e.kind) {
    case 'header_form':
      return `actor ${e.actor}`;
    case 'login':
      return `login ${e.actor}`;
    case 'extract':
      return `${e.operation} extract ${e.name}`;
    case 'body_field':
      return `${e.operation} body ${e.field}`;
    case 'query_param':
      return `${e.operation} query ${e.name}`;
    case 'path_ref':
      return `${e.operation} path ${e.from}`;
    case 'depends_on':
      return `${e.operation} depends_on ${e.to}`;
    default:
      return `${e.operation} ${e.kind}`;
  }
}
