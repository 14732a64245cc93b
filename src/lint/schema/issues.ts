// Ajv's errors for one file, as issues with a YAML path: the schema rules (E_SCHEMA,
// W_UNKNOWN_KEY, W_UNKNOWN_METHOD, …) each claim their own from this one validation.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { YamlPath } from '../../project/index.js';
import { plainValue, type LintableFile } from '../files.js';
import { schemaLocation } from './locations.js';
import { messageOf } from './messages.js';
import { validatorFor } from './validators.js';

export interface SchemaIssue {
  /** Ajv keyword: type, enum, additionalProperties, required, minItems, anyOf, … */
  keyword: string;
  /** where the failing keyword is written, e.g. `common.schema.json#/definitions/method/anyOf` */
  schemaPath: string;
  /** the offending node (for additionalProperties: the unknown key; for required: the map) */
  yamlPath: YamlPath;
  atKey: boolean;
  /** the value found there (never printed for secret-looking keys) */
  data: unknown;
  params: Record<string, unknown>;
  /** a plain sentence; rules may replace it */
  message: string;
}

const cache = new WeakMap<LintableFile, SchemaIssue[]>();

export function schemaIssues(file: LintableFile): SchemaIssue[] {
  let issues = cache.get(file);
  if (!issues) {
    issues = validate(file, validatorFor(file.kind));
    cache.set(file, issues);
  }
  return issues;
}

/** The issues `validator` finds in `file` (uncached: tests compare validators with it). */
export function validate(file: LintableFile, validator: ValidateFunction | undefined): SchemaIssue[] {
  const value = plainValue(file);
  if (!validator || value === undefined || validator(value)) return [];
  const errors = collapse(validator.errors ?? []).filter((e) => !reportedByLoader(file, e));
  return errors.map((e) => toIssue(e, value));
}

/**
 * An `anyOf`/`oneOf` failure is one problem, not one per branch: keep the combined error (its
 * schema's `errorMessage` says what is expected) and drop its branches. An `if` error only
 * repeats its `then` errors.
 */
function collapse(errors: ErrorObject[]): ErrorObject[] {
  const combined = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => ({ e, at: stablePath(e) }));
  return errors.filter((e) => {
    if (e.keyword === 'if') return false;
    const at = stablePath(e);
    return !combined.some((c) => c.e !== e && at.startsWith(`${c.at}/`) && e.instancePath.startsWith(c.e.instancePath));
  });
}

/** `file#/pointer/keyword` of the failing keyword; Ajv's relative schemaPath when unknown. */
function stablePath(e: ErrorObject): string {
  const parent = schemaLocation(e.parentSchema);
  return parent ? `${parent}/${e.keyword}` : e.schemaPath;
}

/** The loader already reports these (E_SCHEMA_VERSION, E_NOT_MAPPING): do not say it twice. */
function reportedByLoader(file: LintableFile, e: ErrorObject): boolean {
  if (file.kind !== 'root') return false;
  if (e.instancePath === '/version') return true;
  if (e.keyword === 'required' && e.instancePath === '' && e.params.missingProperty === 'version') return true;
  return e.keyword === 'type' && /^\/(actors|resources)\/[^/]+$/.test(e.instancePath);
}

function toIssue(e: ErrorObject, root: unknown): SchemaIssue {
  let yamlPath = pointerToPath(e.instancePath, root);
  let atKey = false;
  let data: unknown = e.data;
  if (e.keyword === 'additionalProperties') {
    const key = String(e.params.additionalProperty);
    yamlPath = [...yamlPath, key];
    data = (e.data as Record<string, unknown>)[key];
    atKey = true;
  } else if (e.keyword === 'required' || data === null) {
    // A missing key is reported at its map's key; an empty value (`actor:`) at its own key.
    atKey = yamlPath.length > 0;
  }
  const issue: SchemaIssue = { keyword: e.keyword, schemaPath: stablePath(e), yamlPath, atKey, data, params: e.params, message: '' };
  issue.message = messageOf(issue, e.parentSchema);
  return issue;
}

/** A JSON pointer into `root` as a YAML path: sequence indexes become numbers, as `locate` wants. */
function pointerToPath(pointer: string, root: unknown): Array<string | number> {
  if (!pointer) return [];
  const out: Array<string | number> = [];
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const i = Number(seg);
      out.push(i);
      node = node[i];
    } else {
      out.push(seg);
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}
