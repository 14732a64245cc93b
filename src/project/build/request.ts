// A request written inside an actor (simple login, chain step, session.refresh) and the
// extraction map shared with operations.
import { HTTP_METHODS, type ExtractSpec, type HttpMethod, type RequestSpec, type YamlPath } from '../types.js';
import type { Locator } from './origin.js';
import { asMap, asStatusList, asString, asTemplateMap, asText, type RawMap } from './values.js';
import { scalarText } from '../text.js';

const METHODS = new Set<string>(HTTP_METHODS);

/** docs/format.md#silent-method: default GET; an unknown value silently becomes GET. Case is forgiven. */
function normalizeMethod(v: unknown): HttpMethod {
  const m = typeof v === 'string' ? v.trim().toUpperCase() : '';
  return METHODS.has(m) ? (m as HttpMethod) : 'GET';
}

const EXPLICIT_SOURCES: Record<string, ExtractSpec['source']> = { regex: 'regex', xpath: 'xpath', json: 'jsonpath', jsonpath: 'jsonpath' };

function buildExtract(raw: unknown, file: string, yamlPath: YamlPath, at: Locator): ExtractSpec[] {
  const map = asMap(raw);
  if (!map) return [];
  const out: ExtractSpec[] = [];
  for (const [name, value] of Object.entries(map)) {
    const p = [...yamlPath, name];
    const text = asText(value);
    if (text !== undefined) {
      out.push({ name, path: text, source: 'jsonpath', file, yamlPath: p, loc: at(p) });
      continue;
    }
    const explicit = asMap(value);
    const path = asText(explicit?.path);
    if (!explicit || path === undefined) continue; // lint: E_SCHEMA
    const source = EXPLICIT_SOURCES[scalarText(explicit.source, 'jsonpath').toLowerCase()] ?? 'jsonpath';
    out.push({ name, path, source, file, yamlPath: p, loc: at(p) });
  }
  return out;
}

/** What every request says, an operation's and an actor's alike: the fields, read in one place. */
export type RequestFields = Omit<RequestSpec, 'id' | 'file' | 'yamlPath' | 'loc'>;

export function buildRequestFields(map: RawMap, file: string, yamlPath: YamlPath, at: Locator): RequestFields {
  return {
    method: normalizeMethod(map.method),
    path: asString(map.path) ?? '',
    headers: asTemplateMap(map.headers),
    queryParams: asTemplateMap(map.query_params),
    body: map.body as RequestSpec['body'],
    bodyForm: asMap(map.body_form) as RequestSpec['bodyForm'],
    expectStatus: asStatusList(map.expect_status),
    extract: buildExtract(map.extract, file, [...yamlPath, 'extract'], at),
  };
}

/** A request written inside an actor: the request fields, and a chain step's `id`. */
export function buildRequest(raw: unknown, file: string, yamlPath: YamlPath, at: Locator): RequestSpec | undefined {
  const map = asMap(raw);
  if (!map) return undefined;
  return { id: asText(map.id), ...buildRequestFields(map, file, yamlPath, at), file, yamlPath, loc: at(yamlPath) };
}
