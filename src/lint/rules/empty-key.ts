// W_EMPTY_KEY (docs/format.md#r3, #self-check): `depends_on: []`, `assert: []`, `actor: ""`, `expect_status: []`
// or the key with no value at all. An empty key means nothing: omit it.
import type { SchemaIssue } from '../schema/issues.js';
import { atProperty, claimRule, keyOf } from './schema-claim.js';

const KEYS = ['depends_on', 'assert', 'actor'];

/** expect_status is a shared definition (operations, logins, chain steps). */
function atExpectStatus(issue: SchemaIssue, keyword: string): boolean {
  return issue.keyword === keyword && issue.schemaPath.endsWith(`/definitions/expectStatus/${keyword}`);
}

function isEmpty(issue: SchemaIssue, keyword: string): boolean {
  return atProperty(issue, KEYS, keyword) || atExpectStatus(issue, keyword);
}

export default claimRule('empty-key', {
  code: 'W_EMPTY_KEY',
  claims: (issue) => isEmpty(issue, 'minItems') || isEmpty(issue, 'minLength') || (isEmpty(issue, 'type') && issue.data === null),
  message: (issue) => {
    const key = keyOf(issue);
    return key === 'actor' ? 'actor is empty: omit the key for a public endpoint' : `${key} is empty: omit the key rather than leave it empty`;
  },
});
