// `basic`: `Authorization: Basic base64(username:password)` (RFC 7617), UTF-8.
import { applyAuthorization, renderCredential } from './credentials.js';
import { authConfigError, guardLogin } from './errors.js';
import type { AuthStrategy } from './types.js';

export const basic: AuthStrategy = {
  kind: 'basic',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      // A username identifies, it is not a secret (and redacting a short one would shred output).
      const username = await renderCredential(ctx, 'basic', config.options, 'username', { secret: false });
      if (username.includes(':')) throw authConfigError(ctx, 'basic', 'has a `username` containing ":", which Basic auth cannot carry');
      const password = await renderCredential(ctx, 'basic', config.options, 'password', { allowEmpty: true });
      const encoded = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
      ctx.redact(encoded);
      return { values: {}, credentials: { authorization: `Basic ${encoded}` } };
    }),
  apply: applyAuthorization,
};
