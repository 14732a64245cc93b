// A copy of the project model with edits made, for the next round (or a single try) on a
// fresh runner: the loaded project itself is never changed.
import type { Actor, Project, TemplateValue } from '../project/index.js';
import type { Edit } from './types.js';

export function withEdits(project: Project, edits: readonly Edit[]): Project {
  const operations = new Map(project.operations);
  const actors = new Map(project.actors);
  for (const e of edits) {
    if (e.kind === 'header_form') {
      const a = actors.get(e.actor)!;
      actors.set(e.actor, withHeaderForm(a, e.place, e.header, e.to));
      continue;
    }
    const op = operations.get(e.operation)!;
    if (e.kind === 'expect_status') operations.set(op.id, { ...op, expectStatus: e.to });
    else if (e.kind === 'extract') operations.set(op.id, { ...op, extract: op.extract.map((x) => (x.name === e.name ? { ...x, path: e.to } : x)) });
    else operations.set(op.id, { ...op, actor: e.to });
  }
  return { ...project, operations, actors };
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
