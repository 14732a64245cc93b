// The importer's error codes. Formatting them is the CLI's job; messages name the input.
import { FlowError } from '../errors.js';

/** An importer code (each is one of src/errors.ts ERROR_CODES). */
export type ImportCode = (typeof IMPORT_CODES)[keyof typeof IMPORT_CODES];

export const IMPORT_CODES = {
  /** an input file cannot be read */
  input: 'E_IMPORT_INPUT',
  /** the format of an input cannot be detected (give --from) */
  format: 'E_IMPORT_FORMAT',
  /** an input is not valid for its format (bad JSON/YAML, unresolvable $ref, not a collection) */
  parse: 'E_IMPORT_PARSE',
  /** --into names a directory without a project, or a file there cannot be edited */
  into: 'E_IMPORT_INTO',
  /** the output directory exists and is not empty */
  outExists: 'E_IMPORT_OUT_EXISTS',
  /** `--check answer.md`: no file in the answer, or a file path that leaves the project */
  answer: 'E_IMPORT_ANSWER',
  /** `--llm`: the model's answer stopped at its length limit (finish_reason: length) */
  llmTruncated: 'E_LLM_TRUNCATED',
} as const;

export function importError(code: ImportCode, message: string, file?: string, cause?: unknown): FlowError {
  return new FlowError(code, message, { details: file ? { file } : undefined, cause });
}
