// JSON read by the importer, from an input file or from a body inside one (a HAR entry, a
// Postman `raw` body, a curl `-d`, a Markdown example), bounded like YAML: js-yaml stops at
// MAX_DOCUMENT_DEPTH levels, and JSON.parse, which does not recurse, is held to the same after
// the fact, before any reader walks the value (they recurse, and a 10k-deep document cost
// minutes and gigabytes in the $ref walk, or overflowed the stack).
import { measure, MAX_DOCUMENT_DEPTH } from '../limits/index.js';
import { IMPORT_CODES, importError } from './errors.js';

/** The text as JSON, or undefined when it is not JSON (blank text included); E_IMPORT_PARSE when it nests too deep. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  if (measure(value, { maxDepth: MAX_DOCUMENT_DEPTH }).over) {
    throw importError(IMPORT_CODES.parse, `JSON nested deeper than ${MAX_DOCUMENT_DEPTH} levels (the limit, as for YAML): not read`);
  }
  return value;
}
