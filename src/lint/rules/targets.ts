// E_REF_UNDEFINED for names an operation gives (docs/format.md#operations, #error-codes): a depends_on target that is
// not an operation, an actor that is not an actor, a for_each that names no resource; and a
// resource shared with an actor that is not one (`shared.with`).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { dependsOnEntries, didYouMean } from '../../graph/index.js';
import type { Operation, Project } from '../../project/index.js';
import type { Finding, LintContext, MissingName, Rule } from '../rule.js';

const targetsRule: Rule = {
  id: 'targets',
  codes: ['E_REF_UNDEFINED'],
  *check({ project }: LintContext): Iterable<Finding> {
    for (const op of project.operations.values()) {
      // most operations have none: no generator to delegate to (45 of 580 ms linting 10,000 operations)
      if (op.dependsOn.length) yield* dependsOn(op, project);
      if (op.actor !== undefined && !project.actors.has(op.actor)) {
        const message = `actor "${op.actor}" is not an actor of this project${unloaded(project, op.actor) ?? didYouMean(op.actor, project.actors.keys())}`;
        yield undefinedAt(op, ['actor'], message, { kind: 'actor', name: op.actor });
      }
      if (op.forEach !== undefined && !project.resources.has(op.forEach)) {
        const message = `for_each "${op.forEach}" names no resource${didYouMean(op.forEach, project.resources.keys())}`;
        yield undefinedAt(op, ['for_each'], message, { kind: 'resource', name: op.forEach });
      }
    }
    for (const resource of project.resources.values()) {
      for (const grant of resource.shared ?? []) {
        for (const [i, actor] of (grant.with ?? []).entries()) {
          if (project.actors.has(actor)) continue;
          const message = `shared with "${actor}", which is not an actor of this project${unloaded(project, actor) ?? didYouMean(actor, project.actors.keys())}`;
          const yamlPath = [...resource.yamlPath, 'shared', ...(grant.index === undefined ? [] : [grant.index]), 'with', i];
          yield { code: 'E_REF_UNDEFINED', severity: 'error', message, file: resource.file, yamlPath, missing: { kind: 'actor', name: actor } };
        }
      }
    }
  },
};

function* dependsOn(op: Operation, project: Project): Iterable<Finding> {
  for (const { target, yamlPath } of dependsOnEntries(op)) {
    if (project.operations.has(target)) continue;
    const message = `depends_on "${target}" is not an operation${didYouMean(target, project.operations.keys())}`;
    // the resource's file may be the one that did not parse
    const missing = { kind: 'resource', name: target.split('.')[0] } as const;
    yield { code: 'E_REF_UNDEFINED', severity: 'error', message, file: op.file, yamlPath, missing };
  }
}

/** An actor file by that name that no pattern of the root's `imports` loads: the likelier cause. */
function unloaded(project: Project, actor: string): string | undefined {
  if (!/^[\w.-]+$/.test(actor)) return undefined;
  const file = ['yaml', 'yml'].map((ext) => `actors/${actor}.${ext}`).find((f) => existsSync(path.join(project.dir, f)));
  if (!file || project.files.some((f) => path.resolve(f.path) === path.join(project.dir, file))) return undefined;
  return `: ${file} exists, but no pattern of ${path.basename(project.rootFile)}'s \`imports\` loads it (add "actors/*.yaml")`;
}

function undefinedAt(op: Operation, key: string[], message: string, missing: MissingName): Finding {
  return { code: 'E_REF_UNDEFINED', severity: 'error', message, file: op.file, yamlPath: [...op.yamlPath, ...key], missing };
}

export default targetsRule;
