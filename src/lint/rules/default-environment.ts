// `default_environment` (docs/format.md#the-root-file) must name an environment: E_REF_UNDEFINED. When no
// environment is loaded at all (a flow.yaml without imports, or patterns that match nothing:
// the empty project of docs/format.md#imports-missing, which lints clean), W_NO_ENVIRONMENT names the cause.
import { unmatchedImports, type Project } from '../../project/index.js';
import type { Finding, Rule } from '../rule.js';

const defaultEnvironment: Rule = {
  id: 'default-environment',
  codes: ['E_REF_UNDEFINED', 'W_NO_ENVIRONMENT'],
  *check({ project }): Generator<Finding> {
    const id = project.defaultEnvironment;
    if (id === undefined || project.environments.has(id)) return;
    const defined = [...project.environments.keys()];
    if (defined.length) {
      yield {
        code: 'E_REF_UNDEFINED',
        message: `default_environment "${id}" names no environment (defined: ${defined.join(', ')})`,
        file: project.rootFile,
        yamlPath: ['default_environment'],
        missing: { kind: 'environment', name: id },
      };
      return;
    }
    yield {
      code: 'W_NO_ENVIRONMENT',
      message: `default_environment "${id}" names no environment, and none is loaded: ${noneLoaded(project)}`,
      file: project.rootFile,
      yamlPath: ['default_environment'],
      missing: { kind: 'environment', name: id },
    };
  },
};

function noneLoaded(project: Project): string {
  if (!project.imports.length) return 'flow.yaml has no imports, so no file is read';
  const empty = unmatchedImports(project).map((u) => `"${u.pattern}" (line ${u.loc.line})`);
  if (empty.length) return `import ${empty.join(', ')} ${empty.length > 1 ? 'match' : 'matches'} no file`;
  return 'no imported file is under environments/';
}

export default defaultEnvironment;
