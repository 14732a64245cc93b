// Naming: identifiers for resources, operations, variables; singular/plural of path words.
// Names are derived from words of the input (path segments, field names), never made up.

const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  data: 'data',
  news: 'news',
  status: 'status',
  series: 'series',
  analysis: 'analysis',
  address: 'address',
  process: 'process',
  access: 'access',
  business: 'business',
  canvas: 'canvas',
  alias: 'alias',
};

/** `pets` -> `pet`, `categories` -> `category`, `boxes` -> `box`; a singular word stays. */
export function singular(word: string): string {
  const w = word;
  const lower = w.toLowerCase();
  if (IRREGULAR[lower]) return IRREGULAR[lower];
  if (/(ss|us|is)$/i.test(w)) return w;
  if (/ies$/i.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ches|shes|xes|zzes|sses)$/i.test(w)) return w.slice(0, -2);
  if (/s$/i.test(w) && w.length > 2) return w.slice(0, -1);
  return w;
}

export function plural(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

export function isPluralWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (IRREGULAR[lower] && IRREGULAR[lower] !== lower) return true;
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
