// W_UNKNOWN_METHOD (docs/format.md#operations, #silent-method): an unknown `method` is silently
// sent as GET (case is forgiven).
import { HTTP_METHODS } from '../../project/index.js';
import { claimRule } from './schema-claim.js';

export default claimRule('unknown-method', {
  code: 'W_UNKNOWN_METHOD',
  claims: (issue) => issue.schemaPath.includes('/definitions/method/'),
  message: (issue) => {
    const written = typeof issue.data === 'string' ? issue.data : JSON.stringify(issue.data);
    return `method "${written}" is unknown and is sent as GET (one of: ${HTTP_METHODS.join(', ')})`;
  },
});
