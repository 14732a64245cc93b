// Names derived from words of a project or an input: shared by the importer and `flow lint --fix`
// (which names the secrets it creates), so both spell a secret's name the same way; and which
// values a create must send different each time, shared by the importer and calibrate.
import { createHash } from 'node:crypto';

/** Longest name made from words: a file is named after it, and file systems take 255 bytes. */
export const MAX_NAME = 64;

/**
 * `findByStatus` -> `find_by_status`, `pull-requests` -> `pull_requests`, `3d_secure` -> `_3d_secure`.
 * A name past MAX_NAME is a readable prefix and a hash of the whole (`very_long_name_…_1a2b3c4d`):
 * the same words always give the same name, so a second import names things as the first did.
 */
export function snake(text: string): string {
  const s = snakeCase(text);
  if (s.length <= MAX_NAME) return s;
  const hash = createHash('sha256').update(s).digest('hex').slice(0, 8);
  return `${s.slice(0, MAX_NAME - hash.length - 1).replace(/_+$/, '')}_${hash}`;
}

function snakeCase(text: string): string {
  const s = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  if (!s) return '';
  return /^[0-9]/.test(s) ? `_${s}` : s;
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

/** Field names whose value a server usually keeps unique: a second create with the same literal answers 409. */
const UNIQUE_NAME = /^(name|slug|username|user_?name|login|handle|email|e_?mail|identifier|key|code)$/i;
/** An e-mail address, whatever its field's name (an owner, a contact): accounts keep them unique. */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The run-unique part a literal that must be unique gets: a UUID, which no other run (nor create) draws again. */
export const RUN_UNIQUE = '{{$.uuid}}';

/** Whether a create's literal must differ from one create to the next: an e-mail in any field, or a field a server keeps unique. */
export function keptUnique(field: string, value: string): boolean {
  return EMAIL.test(value) || UNIQUE_NAME.test(field);
}

/** `team-board` -> `team-board-{{$.uuid}}`, `jo@example.com` -> `jo+{{$.uuid}}@example.com`. */
export function withUniquePart(value: string): string {
  const at = value.indexOf('@');
  return at > 0 && EMAIL.test(value) ? `${value.slice(0, at)}+${RUN_UNIQUE}${value.slice(at)}` : `${value}-${RUN_UNIQUE}`;
}
