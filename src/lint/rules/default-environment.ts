// E_REF_UNDEFINED for `default_environment` (spec 2.2): it must name an environment.
import type { Finding, Rule } from '../rule.js';

const defaultEnvironment: Rule = {
  id: 'default-environment',
  codes: ['E_REF_UNDEFINED'],
  *check({ project }): Generator<Finding> {
    const id = project.defaultEnvironment;
    if (id === undefined || project.environments.has(id)) return;
    const defined = [...project.environments.keys()];
    yield {
      code: 'E_REF_UNDEFINED',
      message: `default_environment "${id}" names no environment (${defined.length ? `defined: ${defined.join(', ')}` : 'none is defined'})`,
      file: project.rootFile,
      yamlPath: ['default_environment'],
    };
  },
};

export default defaultEnvironment;
