// `bearer`: a token issued in advance (docs/format.md#auth-issued) -> `Authorization: Bearer <token>`.
import { applyAuthorization, renderCredential } from './credentials.js';
import { guardLogin } from './errors.js';
import type { AuthStrategy } from './types.js';

export const bearer: AuthStrategy = {
  kind: 'bearer',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      const token = await renderCredential(ctx, 'bearer', config.options, 'token');
      // `token: "Bearer {{secret.T}}"` is a common slip; never send "Bearer Bearer …".
      const authorization = /^bearer\s+\S/i.test(token) ? token : `Bearer ${token}`;
      return { values: {}, credentials: { authorization } };
    }),
  apply: applyAuthorization,
};
