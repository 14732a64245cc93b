// E_TEMPLATE_SYNTAX: a `{{ }}` that is not one of the forms of spec 2.8 (including the
// builtins that do not exist: $.random, $.timestamp, $.date).
import type { Finding, LintContext, Rule } from '../rule.js';

const templateSyntaxRule: Rule = {
  id: 'template-syntax',
  codes: ['E_TEMPLATE_SYNTAX'],
  *check({ graph }: LintContext): Iterable<Finding> {
    for (const site of graph.refs) {
      if (site.class !== 'syntax-error') continue;
      yield { code: 'E_TEMPLATE_SYNTAX', severity: 'error', message: site.message ?? `${site.raw}: malformed reference`, file: site.file, yamlPath: site.yamlPath };
    }
  },
};

export default templateSyntaxRule;
