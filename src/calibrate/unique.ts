// Run-unique values in a write's body, both ways. The importer gives a name a run-unique part
// (`flexibleRollout-{{$.uuid}}`) so that a second run does not answer 409; but some such names
// name something that must exist (a strategy type), and the server's 4xx quotes the value sent.
// The other way, a 409 to a write whose body holds only literals: a literal made run-unique.
// Either is only a candidate: a try's 2xx proves it.
import { escapeRegExp, withUniquePart, type TemplateValue } from '../project/index.js';

/** `name-{{$.uuid}}`, `jo+{{$.uuid}}@example.com`: the literal the input gave, and what was added. */
const UNIQUE = [/^(.+)-\{\{\s*\$\.uuid\s*\}\}$/, /^(.+)\+\{\{\s*\$\.uuid\s*\}\}(@.+)$/];
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-';

const isMap = (v: unknown): v is Record<string, TemplateValue> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Fields looked at in one body (two levels deep): a body is the project's, but bounded all the same. */
const MAX_FIELDS = 50;

/** Every string field of a body map, dotted, two levels deep. */
function stringFields(body: TemplateValue | undefined): Array<{ field: string; value: string }> {
  const out: Array<{ field: string; value: string }> = [];
  const walk = (v: TemplateValue | undefined, prefix: string, depth: number) => {
    if (!isMap(v) || depth > 1) return;
    for (const [k, x] of Object.entries(v)) {
      if (out.length >= MAX_FIELDS) return;
      if (typeof x === 'string') out.push({ field: prefix + k, value: x });
      else walk(x, `${prefix}${k}.`, depth + 1);
    }
  };
  walk(body, '', 0);
  return out;
}

/**
 * The body fields whose run-unique value the answer quotes (`Could not find strategy type with
 * name flexibleRollout-4521c146-…`), each with the input's own literal (`flexibleRollout`).
 */
export function quotedUnique(body: TemplateValue | undefined, answer: string): Array<{ field: string; literal: string }> {
  return stringFields(body).flatMap(({ field, value }) => {
    const m = UNIQUE.map((re) => re.exec(value)).find(Boolean);
    if (!m) return [];
    const literal = m[2] === undefined ? m[1] : `${m[1]}${m[2]}`;
    const sent = m[2] === undefined ? `${escapeRegExp(m[1])}-${UUID}` : `${escapeRegExp(m[1])}\\+${UUID}`;
    return new RegExp(sent, 'i').test(answer) ? [{ field, literal }] : [];
  });
}

/** The body's top-level literal strings (no `{{`), each with a run-unique part added: candidates after a 409. */
export function madeUnique(body: TemplateValue | undefined): Array<{ field: string; value: string }> {
  return stringFields(body)
    .filter(({ field, value }) => !field.includes('.') && isLiteral(value))
    .map(({ field, value }) => ({ field, value: withUniquePart(value) }));
}

/** A non-empty string with no reference in it. */
export const isLiteral = (value: unknown): value is string => typeof value === 'string' && value !== '' && !value.includes('{{');
