// The validator of each file kind. The build precompiles them (validators.cjs next to this
// module in dist/: a few ms to load, where importing Ajv and compiling the schemas took
// 70-140 ms of every `flow lint`, `flow run` and Vitest worker); without that file, or when
// it was built from other schema files, they are compiled here on first use.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type { FileKind } from '../../project/index.js';
import { compileValidators, type Validators } from './ajv.js';
import { SCHEMA_FILES, schemaFingerprint } from './sources.js';

/** The build's output, next to the compiled form of this module. */
export const PRECOMPILED_FILE = 'validators.cjs';

const require = createRequire(import.meta.url);
let validators: Validators | undefined;

export function validatorFor(kind: FileKind): ValidateFunction | undefined {
  validators ??= loadPrecompiled() ?? compileValidators();
  return validators[kind];
}

/**
 * Precompiled validators from `file`, or undefined when there is none (tests run from src/)
 * or it is stale: schemas/ changed since the build.
 */
export function loadPrecompiled(file: string = fileURLToPath(new URL(PRECOMPILED_FILE, import.meta.url))): Validators | undefined {
  if (!existsSync(file)) return undefined;
  const mod = require(file) as Validators & { fingerprint?: unknown };
  if (mod.fingerprint !== schemaFingerprint()) return undefined;
  const out: Validators = {};
  for (const kind of Object.keys(SCHEMA_FILES) as FileKind[]) out[kind] = mod[kind];
  return out;
}

/** Tests: lint with these validators from now on (undefined: choose again as above). */
export function useValidators(next: Validators | undefined): void {
  validators = next;
}
