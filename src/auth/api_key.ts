// `api_key`: a key issued in advance, sent as a header (default), a query parameter or a cookie.
import { getHeader, setCredentialHeader, type PreparedRequest } from '../http/index.js';
import { credential, renderCredential, renderSetting } from './credentials.js';
import { authConfigError, guardLogin } from './errors.js';
import type { AuthStrategy } from './types.js';

type Place = (req: PreparedRequest, name: string, key: string) => void;

const PLACES: Record<string, Place> = {
  header: (req, name, key) => setCredentialHeader(req, name, key),
  query: (req, name, key) => req.url.searchParams.set(name, key),
  cookie: (req, name, key) => {
    const existing = getHeader(req, 'cookie');
    setCredentialHeader(req, 'Cookie', existing ? `${existing}; ${name}=${key}` : `${name}=${key}`);
  },
};

/** The header most APIs name when they take a key in a header; query and cookie have no such convention. */
const DEFAULT_HEADER = 'X-API-Key';

export const apiKey: AuthStrategy = {
  kind: 'api_key',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      const location = ((await renderSetting(ctx, config.options, 'location')) ?? 'header').toLowerCase();
      if (!Object.hasOwn(PLACES, location)) {
        throw authConfigError(ctx, 'api_key', `has location "${location}"; it must be header, query or cookie`);
      }
      const name = (await renderSetting(ctx, config.options, 'name')) ?? (location === 'header' ? DEFAULT_HEADER : undefined);
      if (!name)
        throw authConfigError(
          ctx,
          'api_key',
          `with location ${location} needs a \`name\` (the ${location === 'query' ? 'query parameter' : 'cookie'} to send)`,
        );
      const key = await renderCredential(ctx, 'api_key', config.options, 'key');
      if (location === 'cookie' && /[;\r\n]/.test(key))
        throw authConfigError(ctx, 'api_key', 'has a `key` that cannot be sent in a cookie (it contains ";" or a line break)');
      return { values: {}, credentials: { location, name, key } };
    }),
  apply(req, _config, session) {
    const c = session.credentials;
    PLACES[credential(c, 'location')](req, credential(c, 'name'), credential(c, 'key'));
  },
};
