// The JSON Schemas of schemas/*.json, compiled once with Ajv. The same files serve editors
// (yaml-language-server) and lint, so what an editor underlines and what lint reports agree.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FileKind } from '../../project/index.js';

/** schemas/ next to src/ (tests) and next to dist/ (the package): three levels up from here. */
export const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);

/** The schema of each file kind; common.schema.json holds the parts they share. */
export const SCHEMA_FILES: Partial<Record<FileKind, string>> = {
  root: 'flow.schema.json',
  environment: 'environment.schema.json',
  actor: 'actor.schema.json',
  resource: 'resource.schema.json',
};
const ALL_FILES = ['common.schema.json', ...Object.values(SCHEMA_FILES)];

/** Options shared by lint and the schema tests: strict, so a mistake in a schema is caught. */
export function createAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  // yaml-language-server shows `errorMessage` instead of its generic text; lint does the same.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

export function readSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as Record<string, unknown>;
}

let validators: Map<FileKind, ValidateFunction> | undefined;

/** Every schema object -> its stable location, `file#/json/pointer` (Ajv's own schemaPath is relative to what it inlined). */
const locations = new WeakMap<object, string>();

/** Where a schema object (an Ajv error's `parentSchema`) is written, e.g. `common.schema.json#/definitions/method`. */
export function schemaLocation(schema: unknown): string | undefined {
  return typeof schema === 'object' && schema !== null ? locations.get(schema) : undefined;
}

function indexLocations(node: unknown, at: string): void {
  if (typeof node !== 'object' || node === null) return;
  locations.set(node, at);
  for (const [k, v] of Object.entries(node)) indexLocations(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

/** The compiled validator of a file kind (none for discarded files). Compiled on first use. */
export function validatorFor(kind: FileKind): ValidateFunction | undefined {
  if (!validators) {
    const ajv = createAjv();
    // Keyed by file name and without `$id`, so relative `$ref`s such as
    // "common.schema.json#/definitions/auth" resolve here as they do in an editor.
    for (const file of ALL_FILES) {
      const schema = readSchema(file);
      indexLocations(schema, `${file}#`);
      ajv.addSchema(schema, file);
    }
    validators = new Map();
    for (const [k, file] of Object.entries(SCHEMA_FILES)) validators.set(k as FileKind, ajv.getSchema(file)!);
  }
  return validators.get(kind);
}
