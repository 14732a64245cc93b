// W_NOT_SEQUENCE (docs/format.md#operations, #silent-not-sequence): a `depends_on` or `assert`
// that is not a sequence is ignored.
import { atProperty, claimRule, keyOf } from './schema-claim.js';

const EXAMPLES: Record<string, string> = {
  depends_on: 'write a list such as [order.create]',
  assert: 'write a list such as ["$.data.status == \'paid\'"]',
};

export default claimRule('not-sequence', {
  code: 'W_NOT_SEQUENCE',
  // An empty value (`depends_on:`) is W_EMPTY_KEY instead.
  claims: (issue) => atProperty(issue, ['depends_on', 'assert'], 'type') && issue.data !== null,
  message: (issue) => `${keyOf(issue)} is not a sequence and is ignored: ${EXAMPLES[keyOf(issue)]}`,
});
