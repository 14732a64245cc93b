// E_SCHEMA: a value of the wrong type or form, by the JSON Schemas in schemas/ (Ajv). The
// format's silent failures (docs/format.md#silent-failures) are claimed by their warning rules
// first and never become errors here.
import { lintableFiles } from '../files.js';
import type { Finding, Rule } from '../rule.js';
import { schemaIssues } from '../schema/issues.js';
import emptyKey from './empty-key.js';
import notSequence from './not-sequence.js';
import unknownKey from './unknown-key.js';
import unknownMethod from './unknown-method.js';
import unknownStrategy from './unknown-strategy.js';

/** Every rule that claims schema issues; what none claims is an E_SCHEMA error. */
export const CLAIM_RULES = [unknownKey, unknownStrategy, unknownMethod, notSequence, emptyKey];

const schema: Rule = {
  id: 'schema',
  codes: ['E_SCHEMA'],
  *check({ project }): Generator<Finding> {
    for (const file of lintableFiles(project)) {
      for (const issue of schemaIssues(file)) {
        if (CLAIM_RULES.some((r) => r.claim.claims(issue)) || isUnquotedTemplate(issue.data)) continue;
        yield { code: 'E_SCHEMA', message: issue.message, file: file.path, yamlPath: issue.yamlPath, atKey: issue.atKey };
      }
    }
  },
};

/**
 * `{{x}}` unquoted, as the yaml library hands it over (`{"{ x }": null}`): the loader reports
 * it as E_TEMPLATE_UNQUOTED ("quote it"), which says more than "must be a string".
 */
function isUnquotedTemplate(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const keys = Object.keys(data);
  return keys.length === 1 && /^\{ .* \}$/s.test(keys[0]) && (data as Record<string, unknown>)[keys[0]] === null;
}

export default schema;
