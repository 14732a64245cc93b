// W_UNKNOWN_STRATEGY (docs/format.md#authentication, #silent-strategy): an unknown or missing
// `auth.strategy` silently becomes `simple`.
import { AUTH_STRATEGIES } from '../../project/index.js';
import { claimRule } from './schema-claim.js';

const HINTS: Record<string, string> = {
  oauth2: '"oauth2" alone does not exist: use oauth2_client_credentials or oauth2_password',
};

export default claimRule('unknown-strategy', {
  code: 'W_UNKNOWN_STRATEGY',
  claims: (issue) =>
    issue.schemaPath.includes('/definitions/auth/properties/strategy/') ||
    (issue.keyword === 'required' && issue.params.missingProperty === 'strategy' && issue.schemaPath.endsWith('/definitions/auth/required')),
  message: (issue) => {
    if (issue.keyword === 'required') return `auth has no strategy: it is read as "simple" (one of: ${AUTH_STRATEGIES.join(', ')})`;
    const written = typeof issue.data === 'string' ? issue.data : JSON.stringify(issue.data);
    const hint = typeof issue.data === 'string' && Object.hasOwn(HINTS, issue.data) ? HINTS[issue.data] : `one of: ${AUTH_STRATEGIES.join(', ')}`;
    return `strategy "${written}" is unknown and is read as "simple" (${hint})`;
  },
});
