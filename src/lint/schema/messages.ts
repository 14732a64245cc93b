// Plain sentences for Ajv's errors. A schema's `errorMessage` (the text editors show too) wins
// for the "wrong shape" keywords; the rest are phrased from the keyword. Values are never
// quoted here: a value may sit under a secret-looking key.
import { closestName } from '../../graph/index.js';
import type { YamlPath } from '../../project/index.js';
import type { SchemaIssue } from './issues.js';

/** Keys whose children are names chosen by the user: a message names the pair, e.g. `headers.X-Id`. */
const OPEN_MAPS = new Set(['headers', 'variables', 'query_params', 'body_form', 'extract', 'evidence', 'operations', 'actors', 'resources']);

/** Where `errorMessage` replaces the generic text. */
const SHAPE_KEYWORDS = new Set(['type', 'anyOf', 'oneOf', 'pattern']);

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'a sequence',
  object: 'a map',
  null: 'empty',
};

/** Keys people write that do not exist, with what to write instead (docs/format.md#operations). */
const KEY_HINTS: Record<string, string> = {
  url: 'there is no "url" key: the request URL is baseUrl + "path"',
  query: 'the key is "query_params"',
  params: 'the key is "query_params"',
  status: 'the key is "expect_status"',
  dependsOn: 'the key is "depends_on"',
  asserts: 'the key is "assert"',
};

/** `expect_status`, `steps[1]`, `headers.X-Id`: enough to find the node next to its line:col. */
function labelOf(yamlPath: YamlPath): string {
  let i = yamlPath.length - 1;
  let suffix = '';
  while (i >= 0 && typeof yamlPath[i] === 'number') suffix = `[${yamlPath[i--]}]${suffix}`;
  if (i < 0) return suffix ? `item${suffix}` : 'the document';
  const name = String(yamlPath[i]);
  const parent = yamlPath[i - 1];
  return typeof parent === 'string' && OPEN_MAPS.has(parent) ? `${parent}.${name}${suffix}` : `${name}${suffix}`;
}

type Phrase = (issue: SchemaIssue, label: string, schema: Record<string, unknown>) => string;

const PHRASES: Record<string, Phrase> = {
  type: (i, label) => `${label} must be ${typeWords(i.params.type)}`,
  enum: (i, label) => `${label} must be one of: ${(i.params.allowedValues as unknown[]).map(String).join(', ')}`,
  const: (i, label) => `${label} must be ${JSON.stringify(i.params.allowedValue)}`,
  minimum: (i, label) => `${label} must be at least ${String(i.params.limit)}`,
  maximum: (i, label) => `${label} must be at most ${String(i.params.limit)}`,
  minItems: (_i, label) => `${label} must not be empty`,
  minLength: (_i, label) => `${label} must not be empty`,
  pattern: (_i, label) => `${label} does not have the expected form`,
  required: (i, label) => `${i.yamlPath.length ? label : 'the file'} is missing the required key "${String(i.params.missingProperty)}"`,
  additionalProperties: (i, _label, schema) => unknownKeyMessage(String(i.params.additionalProperty), schema),
  anyOf: (_i, label) => `${label} does not have an accepted form`,
};

export function messageOf(issue: SchemaIssue, parentSchema: unknown): string {
  const schema = (typeof parentSchema === 'object' && parentSchema !== null ? parentSchema : {}) as Record<string, unknown>;
  if (SHAPE_KEYWORDS.has(issue.keyword) && typeof schema.errorMessage === 'string') return schema.errorMessage;
  const label = labelOf(issue.yamlPath);
  const phrase = PHRASES[issue.keyword];
  return phrase ? phrase(issue, label, schema) : `${label} ${issue.keyword === 'oneOf' ? 'matches no accepted form' : `is invalid (${issue.keyword})`}`;
}

function typeWords(type: unknown): string {
  const list = (Array.isArray(type) ? type : [type]).map((t) => TYPE_WORDS[String(t)] ?? String(t));
  return list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : list[0];
}

function unknownKeyMessage(key: string, schema: Record<string, unknown>): string {
  const known = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const near = closestName(key, known);
  const hint = Object.hasOwn(KEY_HINTS, key) ? KEY_HINTS[key] : near && `did you mean "${near}"?`;
  const tail = hint ?? (known.length ? `known keys here: ${known.join(', ')}` : undefined);
  return `unknown key "${key}" is ignored${tail ? ` (${tail})` : ''}`;
}
