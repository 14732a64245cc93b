// An `auth` map (actor or operation, docs/format.md#authentication). An unknown strategy silently becomes `simple`.
import { AUTH_STRATEGIES, type AuthConfig, type AuthStrategyName, type RequestSpec, type TemplateValue, type YamlPath } from '../types.js';
import type { Locator } from './origin.js';
import { buildRequest } from './request.js';
import { asMap } from './values.js';

const STRATEGIES = new Set<string>(AUTH_STRATEGIES);

export function buildAuth(raw: unknown, file: string, yamlPath: YamlPath, at: Locator): AuthConfig | undefined {
  const map = asMap(raw);
  if (!map) return undefined;
  const strategy: AuthStrategyName = typeof map.strategy === 'string' && STRATEGIES.has(map.strategy) ? (map.strategy as AuthStrategyName) : 'simple';
  const { strategy: rawStrategy, ...options } = map;
  const auth: AuthConfig = { strategy, rawStrategy, options: options as Record<string, TemplateValue>, file, yamlPath, loc: at(yamlPath) };
  if (strategy === 'simple') auth.login = buildLogin(map, file, yamlPath, at);
  if (strategy === 'chain' && Array.isArray(map.steps)) {
    auth.steps = map.steps.map((step, i) => buildLogin(step, file, [...yamlPath, 'steps', i], at)).filter((s): s is RequestSpec => s !== undefined);
  }
  return auth;
}

/**
 * A simple login or a chain step. docs/format.md#authentication lists the keys read (method, path, headers, body,
 * expect_status, extract; a step's id): `query_params` and `body_form` are silently ignored
 * (docs/format.md#unknown-keys, lint W_UNKNOWN_KEY), so the server never receives them.
 */
function buildLogin(raw: unknown, file: string, yamlPath: YamlPath, at: Locator): RequestSpec | undefined {
  const request = buildRequest(raw, file, yamlPath, at);
  return request && { ...request, queryParams: {}, bodyForm: undefined };
}
