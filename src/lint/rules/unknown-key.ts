// W_UNKNOWN_KEY (spec R4, 2.6.1): a key the format does not list is silently ignored. The key
// lists are the schemas' `properties` (per strategy for `auth`), so editors warn on the same keys.
import { claimRule } from './schema-claim.js';

export default claimRule('unknown-key', {
  code: 'W_UNKNOWN_KEY',
  claims: (issue) => issue.keyword === 'additionalProperties',
  message: (issue) => issue.message,
});
