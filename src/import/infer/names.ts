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

/** `findByStatus` -> `find_by_status`, `pull-requests` -> `pull_requests`, `3d_secure` -> `_3d_secure`. */
export function snake(text: string): string {
  const s = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  if (!s) return '';
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

/** An identifier usable in `{{scope.field}}` (spec 2.8): letters, digits, `_` and `-`. */
export function ident(text: string): string {
  const s = text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+(?=[A-Za-z])/, '');
  if (!s) return '_';
  return /^[A-Za-z_]/.test(s) ? s : `_${s}`;
}

/** `UPPER_SNAKE` for secret names. */
export function upperSnake(text: string): string {
  return snake(text).replace(/^_/, '').toUpperCase() || 'SECRET';
}

/** A name not yet in `taken`: `name`, else `name_2`, `name_3`, … */
export function unique(name: string, taken: { has(n: string): boolean }): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}_${i}`)) return `${name}_${i}`;
}

/** Path words that carry no resource meaning: API and version prefixes. */
export function isPrefixWord(segment: string): boolean {
  return /^(api|rest|v\d+(\.\d+)*[a-z]*|\d+(\.\d+)+|beta|alpha|latest|public|private|internal)$/i.test(segment);
}

const CREDENTIAL_RE = /(pass(word|wd|phrase)?|secret|token|api[-_]?key|apikey|access[-_]?key|private[-_]?key|credential|auth(orization)?|session[-_]?id|otp|cookie|sig(nature)?)$/i;
const NOT_CREDENTIAL_RE = /^(token_type|auth_type|authorization_type|token_last_eight|password_policy|secret_name|token_url|auth_url|key_id)$/i;

/** True for a field, header, parameter or variable name that holds a credential. */
export function isCredentialName(name: string): boolean {
  const n = name.replace(/[^A-Za-z0-9_-]/g, '');
  if (NOT_CREDENTIAL_RE.test(n)) return false;
  return CREDENTIAL_RE.test(n) || /^(x-)?api-?key$/i.test(n) || /^pwd$/i.test(n);
}
