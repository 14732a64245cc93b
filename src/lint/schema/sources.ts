// The JSON Schema files of schemas/: where they are, which file kind each one checks, and a
// fingerprint of their text, so precompiled validators built from older files are never used.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FileKind } from '../../project/index.js';

/** schemas/ next to src/ (tests) and next to dist/ (the package): three levels up from here. */
const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);

/** The schema of each file kind; common.schema.json holds the parts they share. */
export const SCHEMA_FILES: Partial<Record<FileKind, string>> = {
  root: 'flow.schema.json',
  environment: 'environment.schema.json',
  actor: 'actor.schema.json',
  resource: 'resource.schema.json',
};
export const ALL_SCHEMA_FILES = ['common.schema.json', ...Object.values(SCHEMA_FILES)];

function readSchemaText(file: string): string {
  return readFileSync(new URL(file, SCHEMA_DIR), 'utf8');
}

export function readSchema(file: string): Record<string, unknown> {
  return JSON.parse(readSchemaText(file)) as Record<string, unknown>;
}

/** A hash of every schema file's name and text: precompiled validators carry the one they were built from. */
export function schemaFingerprint(read: (file: string) => string = readSchemaText): string {
  const hash = createHash('sha256');
  for (const file of ALL_SCHEMA_FILES) hash.update(`${file}\0${read(file)}\0`);
  return hash.digest('base64url');
}
