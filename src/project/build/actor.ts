// An actor file or inline entry (docs/format.md#actors).
import { parseDuration } from '../duration.js';
import type { Actor, RequestSpec, YamlPath } from '../types.js';
import { buildAuth } from './auth.js';
import type { Locator } from './origin.js';
import { buildRequest } from './request.js';
import { asMap, asString, asTemplateMap, asText, type RawMap } from './values.js';

export function buildActor(id: string, raw: RawMap, file: string, yamlPath: YamlPath, at: Locator): Actor {
  const session = asMap(raw.session);
  const ttlRaw = asText(session?.ttl);
  return {
    id,
    description: asString(raw.description),
    auth: buildAuth(raw.auth, file, [...yamlPath, 'auth'], at),
    session: session
      ? {
          ttlRaw,
          ttlMs: ttlRaw === undefined ? undefined : parseDuration(ttlRaw),
          refresh: buildRefresh(session.refresh, file, [...yamlPath, 'session', 'refresh'], at),
        }
      : undefined,
    inject: { headers: asTemplateMap(asMap(raw.inject)?.headers) },
    file,
    yamlPath,
    loc: at(yamlPath),
  };
}

/** docs/format.md#actors: session.refresh reads `method`, `path`, `body` and `extract` only. */
function buildRefresh(raw: unknown, file: string, yamlPath: YamlPath, at: Locator): RequestSpec | undefined {
  const request = buildRequest(raw, file, yamlPath, at);
  return request && { ...request, headers: {}, queryParams: {}, bodyForm: undefined, expectStatus: undefined };
}
