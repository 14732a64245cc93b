// Self-check items about references (docs/format.md#self-check): every `{{X.y}}` scope is a real actor,
// resource, env or secret; every `{{env.X}}` is defined; extractions are referenced by
// resource, not by operation; and there are no cycles.
import { CHECK_CODES, type CheckFinding } from './finding.js';
import type { ProjectView } from './view.js';
import { allStrings, refsIn } from './walk.js';
import { obj } from '../observed.js';

/** Fields each resource extracts (any of its operations) and each actor extracts at login. */
function extracted(view: ProjectView): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (scope: string, names: Iterable<string>): void => {
    const set = out.get(scope) ?? new Set<string>();
    for (const n of names) set.add(n);
    out.set(scope, set);
  };
  for (const op of view.operations.values()) add(op.resource, Object.keys(obj(op.value.extract)));
  for (const [id, a] of view.actors) {
    const auth = obj(a.value.auth);
    add(id, Object.keys(obj(auth.extract)));
    for (const step of Array.isArray(auth.steps) ? auth.steps : []) add(id, Object.keys(obj(obj(step).extract)));
    add(id, Object.keys(obj(obj(obj(a.value.session).refresh).extract)));
  }
  return out;
}

export function checkReferences(view: ProjectView): CheckFinding[] {
  const out: CheckFinding[] = [];
  const defined = new Set<string>();
  for (const env of view.environments) for (const k of Object.keys(env.variables)) defined.add(k);
  const fields = extracted(view);
  const opNames = new Map<string, Set<string>>();
  for (const op of view.operations.values()) opNames.set(op.resource, (opNames.get(op.resource) ?? new Set()).add(op.name));
  for (const s of allStrings(view.files)) {
    const { refs, errors } = refsIn(s.text);
    for (const e of errors) out.push({ code: CHECK_CODES.template, file: s.file.path, where: s.where, message: e });
    for (const r of refs) {
      if (r.kind === 'env' && !defined.has(r.name)) {
        out.push({ code: CHECK_CODES.envUndefined, file: s.file.path, where: s.where, message: `{{env.${r.name}}} is not defined in the environment file` });
      }
      if (r.kind !== 'scoped') continue;
      const isActor = view.actors.has(r.scope);
      const isResource = view.resources.has(r.scope);
      if (!isActor && !isResource) {
        out.push({
          code: CHECK_CODES.scope,
          file: s.file.path,
          where: s.where,
          message: `{{${r.scope}.${r.field}}}: "${r.scope}" is not an actor, a resource, env or secret`,
        });
        continue;
      }
      if (isResource && r.path.length && opNames.get(r.scope)?.has(r.field)) {
        out.push({
          code: CHECK_CODES.operationRef,
          file: s.file.path,
          where: s.where,
          message: `{{${r.scope}.${r.field}.${r.path.join('.')}}} names an operation: extractions are referenced by resource, as {{${r.scope}.${r.path[0]}}}`,
        });
        continue;
      }
      if (!fields.get(r.scope)?.has(r.field)) {
        out.push({
          code: CHECK_CODES.notExtracted,
          file: s.file.path,
          where: s.where,
          message: `{{${r.scope}.${r.field}}}: no ${isActor ? 'login of actor' : 'operation of resource'} ${r.scope} extracts "${r.field}"`,
        });
      }
    }
  }
  return out;
}

/** Edges: depends_on, and a reference to {{resource.field}} -> the operations extracting it. */
export function checkCycles(view: ProjectView): CheckFinding[] {
  const producers = new Map<string, string[]>();
  for (const [id, op] of view.operations) {
    for (const f of Object.keys(obj(op.value.extract))) {
      const key = `${op.resource}.${f}`;
      producers.set(key, [...(producers.get(key) ?? []), id]);
    }
  }
  const edges = new Map<string, Set<string>>();
  for (const [id, op] of view.operations) {
    const out = new Set<string>();
    for (const d of Array.isArray(op.value.depends_on) ? op.value.depends_on : []) if (typeof d === 'string') out.add(d);
    const actor = typeof op.value.actor === 'string' ? view.actors.get(op.value.actor) : undefined;
    const texts = [JSON.stringify(op.value), actor ? JSON.stringify(actor.value) : ''];
    for (const text of texts) {
      for (const r of refsIn(text).refs) {
        if (r.kind !== 'scoped' || !view.resources.has(r.scope)) continue;
        const ps = producers.get(`${r.scope}.${r.field}`) ?? [];
        if (ps.includes(id)) continue; // it produces the value itself: no edge
        for (const p of ps) out.add(p);
      }
    }
    edges.set(id, out);
  }
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const found: CheckFinding[] = [];
  const visit = (id: string): void => {
    state.set(id, 1);
    stack.push(id);
    for (const next of edges.get(id) ?? []) {
      if (!edges.has(next)) continue;
      if (state.get(next) === 1) {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        const op = view.operations.get(id)!;
        found.push({ code: CHECK_CODES.cycle, file: op.file.path, where: `operations.${op.name}`, message: `circular dependency: ${cycle.join(' -> ')}` });
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(id, 2);
  };
  for (const id of edges.keys()) if (!state.has(id)) visit(id);
  return found;
}
