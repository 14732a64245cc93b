// A rule made of the schema issues it claims. The E_SCHEMA rule reports what no claim takes,
// so each issue gets exactly one code.
import { lintableFiles } from '../files.js';
import type { Finding, Rule } from '../rule.js';
import { schemaIssues, type SchemaIssue } from '../schema/issues.js';

export interface IssueClaim {
  code: string;
  claims(issue: SchemaIssue): boolean;
  message(issue: SchemaIssue): string;
}

export function claimRule(id: string, claim: IssueClaim): Rule & { claim: IssueClaim } {
  return {
    id,
    codes: [claim.code],
    claim,
    *check({ project }): Generator<Finding> {
      for (const file of lintableFiles(project)) {
        for (const issue of schemaIssues(file)) {
          if (claim.claims(issue)) yield { code: claim.code, message: claim.message(issue), file: file.path, yamlPath: issue.yamlPath, atKey: issue.atKey };
        }
      }
    },
  };
}

/** The key an issue is about: the last name in its path (`depends_on`, `actor`, …). */
export function keyOf(issue: SchemaIssue): string {
  for (let i = issue.yamlPath.length - 1; i >= 0; i--) if (typeof issue.yamlPath[i] === 'string') return String(issue.yamlPath[i]);
  return '';
}

/** True when the keyword fails at `properties/<one of keys>/<keyword>` of some schema. */
export function atProperty(issue: SchemaIssue, keys: string[], keyword: string): boolean {
  return issue.keyword === keyword && keys.some((k) => issue.schemaPath.endsWith(`/properties/${k}/${keyword}`));
}
