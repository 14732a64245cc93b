// Input format detection from the content (the file name is only a tie-breaker); `--from` overrides.
import { parseJson as parseJsonText } from './json.js';
import type { InputFormat } from './observed.js';
import { scalarText } from '../project/index.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON inputs: the top-level keys say what they are. */
const isCollection = (v: Obj): boolean => isObj(v.info) && (scalarText(v.info.schema).includes('getpostman') || Array.isArray(v.item));
const isEnvironment = (v: Obj): boolean => Array.isArray(v.values) && ('_postman_variable_scope' in v || 'name' in v);

const JSON_SIGNS: Array<[InputFormat, (v: Obj) => boolean]> = [
  ['openapi', (v) => typeof v.openapi === 'string' || typeof v.swagger === 'string'],
  ['postman', isCollection],
  ['postman', isEnvironment],
  // as the Postman API exports them: `{"collection": {...}}`, `{"environment": {...}}`
  ['postman', (v) => isObj(v.collection) && isCollection(v.collection)],
  ['postman', (v) => isObj(v.environment) && isEnvironment(v.environment)],
  ['har', (v) => isObj(v.log) && Array.isArray(v.log.entries)],
];

const CURL_RE = /(?:^|[\s$>`])curl\s+\S/gm;
const ENDPOINT_RE = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(?:\/|[A-Z_]{2,}\/|https?:\/\/|\{\{)/g;

/** An input's text as JSON when it is JSON (an object or a list); E_IMPORT_PARSE when it nests too deep. */
export function parseJson(text: string): unknown {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  return parseJsonText(text);
}

/** The format of one input, or undefined when nothing in it says. */
export function detectFormat(text: string, json: unknown): InputFormat | undefined {
  if (isObj(json)) {
    for (const [format, test] of JSON_SIGNS) if (test(json)) return format;
    return undefined;
  }
  if (/^(?:openapi|swagger)\s*:/m.test(text) && /^paths\s*:|^webhooks\s*:|^components\s*:/m.test(text)) return 'openapi';
  if (/^(?:openapi|swagger)\s*:\s*['"]?\d/m.test(text)) return 'openapi';
  const curls = text.match(CURL_RE)?.length ?? 0;
  // A link naming an endpoint (`[POST /api/v1/apps](…)`) documents nothing by itself.
  const endpoints = text.replace(/\[[^\]\n]*\]\([^)\n]*\)/g, '').match(ENDPOINT_RE)?.length ?? 0;
  if (curls && curls >= endpoints) return 'curl';
  if (endpoints) return 'markdown';
  return undefined;
}
