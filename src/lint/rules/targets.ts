// E_REF_UNDEFINED for names an operation gives (docs/format.md#operations, #error-codes): a depends_on target that is
// not an operation, an actor that is not an actor, a for_each that names no resource.
import { dependsOnEntries, didYouMean } from '../../graph/index.js';
import type { Operation, Project } from '../../project/index.js';
import type { Finding, LintContext, Rule } from '../rule.js';

const targetsRule: Rule = {
  id: 'targets',
  codes: ['E_REF_UNDEFINED'],
  *check({ project }: LintContext): Iterable<Finding> {
    for (const op of project.operations.values()) {
      // most operations have none: no generator to delegate to (45 of 580 ms linting 10,000 operations)
      if (op.dependsOn.length) yield* dependsOn(op, project);
      if (op.actor !== undefined && !project.actors.has(op.actor)) {
        yield undefinedAt(op, ['actor'], `actor "${op.actor}" is not an actor of this project${didYouMean(op.actor, project.actors.keys())}`);
      }
      if (op.forEach !== undefined && !project.resources.has(op.forEach)) {
        yield undefinedAt(op, ['for_each'], `for_each "${op.forEach}" names no resource${didYouMean(op.forEach, project.resources.keys())}`);
      }
    }
  },
};

function* dependsOn(op: Operation, project: Project): Iterable<Finding> {
  for (const { target, yamlPath } of dependsOnEntries(op)) {
    if (project.operations.has(target)) continue;
    const message = `depends_on "${target}" is not an operation${didYouMean(target, project.operations.keys())}`;
    yield { code: 'E_REF_UNDEFINED', severity: 'error', message, file: op.file, yamlPath };
  }
}

function undefinedAt(op: Operation, key: string[], message: string): Finding {
  return { code: 'E_REF_UNDEFINED', severity: 'error', message, file: op.file, yamlPath: [...op.yamlPath, ...key] };
}

export default targetsRule;
