// W_UNKNOWN_KEY (docs/format.md#r4, #unknown-keys): a key the format does not list is silently ignored. The key
// lists are the schemas' `properties` (per strategy for `auth`), so editors warn on the same keys.
// In an auth map, a key another strategy reads says so (`secret_key` under `strategy: jwt`).
import { strategiesReading } from '../schema/auth-keys.js';
import { claimRule, keyOf } from './schema-claim.js';

export default claimRule('unknown-key', {
  code: 'W_UNKNOWN_KEY',
  claims: (issue) => issue.keyword === 'additionalProperties',
  message: (issue) => {
    const owners = issue.yamlPath.at(-2) === 'auth' ? strategiesReading(keyOf(issue)) : [];
    if (!owners.length) return issue.message;
    return issue.message.replace(' is ignored', ` is ignored: it is a key of strategy ${owners.join(' or ')}, not of this one`);
  },
});
