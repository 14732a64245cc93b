// Every lint rule, one module each. Order here is the order of the output for one position.
import type { Rule } from '../rule.js';
import authFiles from './auth-files.js';
import baseUrlPath from './baseurl-path.js';
import cycles from './cycles.js';
import defaultEnvironment from './default-environment.js';
import expressions from './expressions.js';
import fieldsExtracted from './fields-extracted.js';
import inlineLogin from './inline-login.js';
import plaintextSecret from './plaintext-secret.js';
import references from './references.js';
import schema, { CLAIM_RULES } from './schema.js';
import secretName from './secret-name.js';
import sharedNames from './shared-names.js';
import targets from './targets.js';
import templateSyntax from './template-syntax.js';
import writeNotOwned from './write-not-owned.js';

export const RULES: Rule[] = [
  // structural rules: the JSON Schemas (E_SCHEMA and the warnings that claim schema issues:
  // W_UNKNOWN_KEY, W_UNKNOWN_STRATEGY, W_UNKNOWN_METHOD, W_NOT_SEQUENCE, W_EMPTY_KEY), then
  // checks of values. (E_YAML_PARSE, E_SCHEMA_VERSION, E_DUPLICATE_ID, W_FILE_DISCARDED and
  // W_IMPORT_PATTERN come from the loader, in project.diagnostics.)
  schema,
  ...CLAIM_RULES,
  plaintextSecret,
  secretName,
  baseUrlPath,
  defaultEnvironment,
  // what a run would fail on: expressions it cannot parse, a login that sends no credential
  expressions,
  inlineLogin,
  authFiles,
  // graph rules: references, cycles, fields not extracted
  templateSyntax,
  references,
  sharedNames,
  targets,
  cycles,
  fieldsExtracted,
  // what a run would not send: a write on instances a list feeds
  writeNotOwned,
];
