// A credential placeholder bound to the one credential a create issues (id-fields.ts
// `issuedField`): right under that create's collection (`/api-tokens/{token}`), or under another
// path word when the create's own answer ties that word to the credential: one of its fields'
// examples is a URL carrying the word as a query key or a path segment with the credential's
// example as its value (`url: https://…/new-user?invite=<secret's example>` for
// `/invite/{token}`). Never from a name alone.
import type { ObservedField } from '../observed.js';
import { endpointId, type Endpoint } from './endpoints.js';
import { issuedField, successFields } from './id-fields.js';
import { namesIssuedCredential } from './names.js';
import { collectionShape, isVarSegment, segmentText } from './paths.js';
import { fieldText } from './traffic.js';

export interface Issued {
  create: Endpoint;
  field: ObservedField;
  why: string;
  /** bound by a tie in an answer, not by the collection: for reads and creates that the run removes only (see `issuedFor`) */
  readsOnly: boolean;
}

const isRead = (e: Endpoint): boolean => e.method === 'GET' || e.method === 'HEAD';

/**
 * `{name}` at segment `index` of `e`: the credential a create issues, when the path places it
 * under that create's collection, or, for a read, when exactly one create's answer ties the
 * word before it to that credential. A write there is left alone (what it makes is no item of
 * the create's, and the clean-up would not know it) unless it is a create of a resource that
 * another DELETE removes (a signup that answers a user: answer-creates.ts).
 */
export function issuedFor(endpoints: Endpoint[], e: Endpoint, name: string, index: number, usable: (p: Endpoint) => boolean): Issued | undefined {
  const word = index > 0 ? segmentText(e.segments[index - 1]) : undefined;
  if (!word || !namesIssuedCredential(name) || !isVarSegment(e.segments[index])) return undefined;
  const creates = endpoints.filter((c) => usable(c) && c.method === 'POST');
  const collection = collectionShape(e.segments.slice(0, index));
  for (const create of creates) {
    const found = collectionShape(create.segments) === collection ? issuedField(create) : undefined;
    if (!found) continue;
    const why = `{${name}} of ${e.ops[0].key} is a credential named right under /${word}; ${endpointId(create)} (${create.ops[0].key}), the create of that collection, issues one credential in its answer, ${fieldText(found.path)} (${found.evidence.file} ${found.evidence.at})`;
    return { create, field: found, why, readsOnly: false };
  }
  // a write is bound only when it is a create of a resource the run removes (answer-creates.ts):
  // what it makes is then the run's own, and nothing is left behind
  const made = isRead(e) ? undefined : e.answerCreate;
  if (!isRead(e) && !made) return undefined;
  const tied: Issued[] = [];
  for (const create of creates) {
    const found = issuedField(create);
    const tie = found && tieOf(create, found, word);
    if (!found || !tie) continue;
    // the credential's value is never quoted (from traffic it is a live one): its place is named
    const secret = String(found.example);
    let shown = String(tie.example);
    for (const form of [secret, encodeURIComponent(secret)]) shown = shown.split(form).join(`<${fieldText(found.path)}>`);
    const owned = made ? `; ${e.ops[0].key} is a create of ${e.resource}, which ${endpointId(made.removal)} removes: what it makes is the run's` : '';
    const why = `{${name}} of ${e.ops[0].key} is a credential named right under /${word}; ${endpointId(create)} (${create.ops[0].key}) issues one credential in its answer, ${fieldText(found.path)}, and its answer's ${fieldText(tie.path)} example ${JSON.stringify(shown)} carries that field's example as the value of ${tie.how} (${tie.evidence.file} ${tie.evidence.at})${owned}`;
    tied.push({ create, field: found, why, readsOnly: true });
  }
  // two creates whose answers tie the word: which one the path takes, nothing says
  return tied.length === 1 ? tied[0] : undefined;
}

/**
 * The field of the create's answer whose example is a URL carrying `word` with the credential's
 * example as its value: `?word=<example>` or `/word/<example>`. The example must be long enough
 * not to match by chance.
 */
function tieOf(create: Endpoint, credential: ObservedField, word: string): (ObservedField & { how: string }) | undefined {
  const secret = credential.example;
  if (typeof secret !== 'string' || secret.length < 8) return undefined;
  for (const f of successFields(create)) {
    if (f === credential || typeof f.example !== 'string' || f.example.length > 2048) continue;
    let url: URL;
    try {
      url = new URL(f.example);
    } catch {
      continue;
    }
    if (url.searchParams.getAll(word).includes(secret)) return { ...f, how: `its query key ${word}` };
    const parts = url.pathname.split('/').map((p) => safeDecode(p));
    if (parts.some((p, i) => p === word && parts[i + 1] === secret)) return { ...f, how: `the path segment after /${word}` };
  }
  return undefined;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
