// W_WRITE_NOT_OWNED (docs/format.md#ownership): a write on an instance that a list or a for_each
// feeds. A run sends it only for instances it created itself, so fed by what the server lists it
// is not sent (E_NOT_OWNED); `acts_on: existing` says it is meant to change existing data. A read
// after a create that answers no id, which finds that create's item by the run-unique value it
// sent (docs/format.md#create-no-id), fills the run's own instance: no warning for it.
import { isFanOutPath, isInstanceWrite, makesRunUnique, writeTarget } from '../../graph/index.js';
import { isPlainObject, type Operation, type Project } from '../../project/index.js';
import type { Finding, Rule } from '../rule.js';

const writeNotOwnedRule: Rule = {
  id: 'write-not-owned',
  codes: ['W_WRITE_NOT_OWNED'],
  *check({ project, graph }): Generator<Finding> {
    for (const op of project.operations.values()) {
      if (op.actsOnExisting || op.method === 'GET') continue;
      const t = writeTarget(graph, op);
      if (!isInstanceWrite(t)) continue;
      const feeder = op.forEach === t.resource ? 'its for_each' : lister(project, t.resource, t.field);
      if (!feeder) continue;
      yield {
        code: 'W_WRITE_NOT_OWNED',
        message:
          `${op.method} acts on a ${t.resource} that ${feeder} fills from what the server lists: a run sends it only for a ` +
          `${t.resource} it created itself; if it is meant to change data that exists before the run, add "acts_on: existing"`,
        file: op.file,
        yamlPath: [...op.yamlPath, 'path'],
      };
    }
  },
};

/** An operation of the resource whose extraction of `field` is a fan-out (`$.data[*].id`). */
function lister(project: Project, resource: string, field: string): string | undefined {
  for (const id of project.resources.get(resource)?.operations ?? []) {
    const op: Operation | undefined = project.operations.get(id);
    if (op?.extract.some((e) => e.name === field && isFanOutPath(e.path)) && !findsOwnCreate(project, op)) return op.id;
  }
  return undefined;
}

/** A GET that runs after a POST of its resource whose body sends a top-level value written with `{{$.uuid}}`. */
function findsOwnCreate(project: Project, op: Operation): boolean {
  if (op.method !== 'GET') return false;
  return op.dependsOn.some((id) => {
    const create = project.operations.get(id);
    if (create?.method !== 'POST' || create.resource !== op.resource || !isPlainObject(create.body)) return false;
    return Object.values(create.body).some((v) => typeof v === 'string' && makesRunUnique(v));
  });
}

export default writeNotOwnedRule;
