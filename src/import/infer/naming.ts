// Resource and operation names from a path template (docs/format.md#layout-resource-id: singular `name:`,
// plural file name). `/pets` and `/pets/{id}` are the pet resource; `/articles/{slug}/favorite`
// is the action `favorite` of an article; `/users/login` the action `login` of a user.
import type { HttpMethod } from '../../project/index.js';
import { isPluralWord, isPrefixWord, plural, singular, snake } from './names.js';
import { isVarSegment, segmentText, type Segment } from './paths.js';

export interface EndpointName {
  resource: string;
  /** the file stem: the path word when it is plural, else the plural of the resource */
  plural: string;
  /** the operation name before collisions are resolved */
  operation: string;
  /** the parent collection word, to tell `source.list` of a customer from `source.list` */
  parent?: string;
  kind: 'collection' | 'item' | 'action' | 'root';
}

const ITEM_OPS: Partial<Record<HttpMethod, string>> = {
  GET: 'get',
  PUT: 'update',
  PATCH: 'patch',
  POST: 'update',
  DELETE: 'delete',
  HEAD: 'head',
  OPTIONS: 'options',
};
const SINGLETON_OPS: Partial<Record<HttpMethod, string>> = { ...ITEM_OPS, POST: 'create' };
const COLLECTION_OPS: Partial<Record<HttpMethod, string>> = {
  GET: 'list',
  POST: 'create',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete_all',
  HEAD: 'head',
  OPTIONS: 'options',
};

/** Drop leading API/version words (`/api/v1/…`); they stay in the path, not in names. */
function meaningful(segments: Segment[]): Segment[] {
  let i = 0;
  while (i < segments.length - 1 && isPrefixWord(segmentText(segments[i]) ?? '')) i++;
  if (segments.length && i === segments.length - 1 && isPrefixWord(segmentText(segments[i]) ?? '')) i++;
  return segments.slice(i).filter((s) => !(s.length === 1 && s[0].kind === 'text' && s[0].text === ''));
}

/**
 * `isCollection(shape)`: some endpoint follows this path prefix (`/pet`, `/store/order`) with
 * a placeholder, so its last word names a collection even when singular. `prefixShape(i)` is
 * the shape of the first i+1 segments.
 */
export function nameEndpoint(
  segments: Segment[],
  method: HttpMethod,
  isCollection: (prefixShape: string) => boolean,
  prefixShape: (upTo: number) => string,
): EndpointName {
  const segs = meaningful(segments);
  const offset = segments.length - segs.length;
  if (!segs.length) return { resource: 'root', plural: 'root', operation: method === 'GET' ? 'get' : method.toLowerCase(), kind: 'root' };
  const lastIdx = segs.length - 1;
  const last = segs[lastIdx];
  const word = (i: number): string | undefined => segmentText(segs[i]);
  const prevStatic = (from: number): number => {
    for (let i = from; i >= 0; i--) if (word(i) !== undefined && !isLiteralId(word(i)!)) return i;
    return -1;
  };
  // A literal id (`/notes/42`, a UUID) names one item of the collection before it, not an action.
  if (isVarSegment(last) || word(lastIdx) === undefined || (lastIdx > 0 && isLiteralId(word(lastIdx)!))) {
    const c = prevStatic(lastIdx - 1);
    if (c < 0) return { resource: 'root', plural: 'root', operation: ITEM_OPS[method] ?? method.toLowerCase(), kind: 'root' };
    return { ...resourceOf(word(c)!), operation: ITEM_OPS[method] ?? method.toLowerCase(), parent: parentOf(segs, c), kind: 'item' };
  }
  const s = word(lastIdx)!;
  const prev = lastIdx > 0 ? segs[lastIdx - 1] : undefined;
  if (isPluralWord(s) || isCollection(prefixShape(offset + lastIdx))) {
    return { ...resourceOf(s), operation: COLLECTION_OPS[method] ?? method.toLowerCase(), parent: parentOf(segs, lastIdx), kind: 'collection' };
  }
  if (!prev) {
    // A singular word alone (`/user`, `/balance`): one thing, not a list of them.
    return { ...resourceOf(s), operation: SINGLETON_OPS[method] ?? method.toLowerCase(), kind: 'item' };
  }
  // A singular word after an item or another word: an action of that resource.
  const owner = prevStatic(lastIdx - 1);
  if (owner < 0) return { ...resourceOf(s), operation: COLLECTION_OPS[method] ?? method.toLowerCase(), kind: 'collection' };
  const action = snake(s) || 'action';
  const operation = method === 'POST' || method === 'GET' ? action : `${method.toLowerCase()}_${action}`;
  return { ...resourceOf(word(owner)!), operation, parent: parentOf(segs, owner), kind: 'action' };
}

/** `42`, a UUID, or a key of letters and digits (`a1b2c3d4`): an identifier, not a word. */
function isLiteralId(w: string): boolean {
  return (
    /^\d+$/.test(w) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/i.test(w) ||
    (w.length >= 8 && /\d/.test(w) && /[a-z]/i.test(w) && /^[A-Za-z0-9_-]+$/.test(w) && !/[_-]/.test(w.replace(/^[a-z]+[_-]/i, '')))
  );
}

const HASHED = /_[0-9a-f]{8}$/;

function resourceOf(word: string): { resource: string; plural: string } {
  const w = snake(word) || 'root';
  const one = singular(w);
  // a long name shortened with its hash (project/names.ts) is its own plural: no `s` after the hash
  return { resource: one, plural: isPluralWord(w) || HASHED.test(w) ? w : plural(one) };
}

function parentOf(segs: Segment[], collectionIdx: number): string | undefined {
  for (let i = collectionIdx - 1; i >= 0; i--) {
    const t = segmentText(segs[i]);
    if (t !== undefined && !isPrefixWord(t)) return singular(snake(t));
  }
  return undefined;
}
