// What every reader gets: one input file, already read.
import type { InputFormat, ObservedApi } from '../observed.js';

export interface ReaderInput {
  /** the file as the user named it (used in evidence and messages) */
  file: string;
  /** absolute path (OpenAPI resolves relative $refs from it) */
  path: string;
  text: string;
  /** the JSON value when the text is JSON (detection parsed it already) */
  json?: unknown;
}

type Reader = (input: ReaderInput) => Promise<ObservedApi> | ObservedApi;
export type ReaderTable = Record<InputFormat, Reader>;

/** One input file, or a file its `$ref`s name (a 100k-request Postman collection is ~25 MB): larger ones are refused unread. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;
