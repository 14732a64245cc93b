// Naming: identifiers for resources, operations, variables; singular/plural of path words.
// Names are derived from words of the input (path segments, field names), never made up.

import { singular } from '../../project/index.js';

/** `pets` -> `pet`: one rule for the importer and calibrate (src/project/names.ts). */
export { singular };

export function plural(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

export function isPluralWord(word: string): boolean {
  return singular(word) !== word;
}

/** An identifier usable in `{{scope.field}}` (docs/format.md#references): letters, digits, `_` and `-`. */
export function ident(text: string): string {
  const s = text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+(?=[A-Za-z])/, '');
  if (!s) return '_';
  return /^[A-Za-z_]/.test(s) ? s : `_${s}`;
}

export { snake, unique, upperSnake } from '../../project/index.js';

/** Path words that carry no resource meaning: API and version prefixes. */
export function isPrefixWord(segment: string): boolean {
  return /^(api|rest|v\d+(\.\d+)*[a-z]*|\d+(\.\d+)+|beta|alpha|latest|public|private|internal)$/i.test(segment);
}

/** Credential names: the one vocabulary shared with lint, redaction and `lint --fix`. */
export { isCredentialName, namesIssuedCredential } from '../../project/index.js';
