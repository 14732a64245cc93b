// E_TEMPLATE_SYNTAX: a `{{ }}` that is not one of the forms of docs/format.md#references (including the
// builtins that do not exist: $.random, $.timestamp, $.date).
import type { Finding, LintContext, Rule } from '../rule.js';
import { secretKeyOver } from './plaintext-secret.js';

const templateSyntaxRule: Rule = {
  id: 'template-syntax',
  codes: ['E_TEMPLATE_SYNTAX'],
  *check({ project, graph }: LintContext): Iterable<Finding> {
    for (const site of graph.refs) {
      if (site.class !== 'syntax-error') continue;
      // The text under a credential key may be the credential itself: name the key only.
      const key = secretKeyOver(site, project);
      const message = key
        ? `the template under "${key}" is not a valid reference (its text is not quoted: "${key}" names a credential)`
        : (site.message ?? `${site.raw}: malformed reference`);
      yield { code: 'E_TEMPLATE_SYNTAX', severity: 'error', message, file: site.file, yamlPath: site.yamlPath };
    }
  },
};

export default templateSyntaxRule;
