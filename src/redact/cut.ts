// Excerpts are cut from texts that may hold secrets. A cut made after redaction never ends
// inside a `***`; a cut made before it (where no redactor is at hand, as in an error message
// built deep in the runtime) is marked with CUT_MARK, and the redactor then hides whatever
// precedes a mark that could be the start of a secret: the first characters of a password
// that straddles the cut are never shown.
import { decodeEscapes } from './escapes.js';

/** Ends every excerpt cut before redaction (and is what an excerpt shows where it was cut). */
export const CUT_MARK = '…';

/** Marks looked at per text, from its end: ours are at or near the end; a body may hold many more of its own. */
const MARKS_CHECKED = 16;

/**
 * The spans before each CUT_MARK (the last MARKS_CHECKED) that could be the start of one of
 * `forms`, in the text or in its JSON-decoded spelling (a cut inside `tok\u003c` included).
 */
export function spansBeforeCuts(text: string, forms: readonly string[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const longest = forms.reduce((n, form) => Math.max(n, form.length), 0);
  let mark = text.lastIndexOf(CUT_MARK);
  for (let n = 0; mark > 0 && n < MARKS_CHECKED; n++, mark = text.lastIndexOf(CUT_MARK, mark - 1)) {
    // Escapes may spell each character in 6; an escape cut short says nothing, so it is dropped.
    const from = Math.max(0, mark - 6 * longest - 6);
    const raw = text.slice(from, mark);
    const partial = /\\(?:u[0-9a-fA-F]{0,3})?$/.exec(raw)?.[0].length ?? 0;
    const head = raw.slice(0, raw.length - partial);
    const decoded = decodeEscapes(head);
    const view = decoded?.view ?? head;
    const k = longestStartOfForm(view, forms);
    if (!k) continue;
    const start = decoded ? decoded.at(view.length - k) : head.length - k;
    out.push([from + start, mark]);
  }
  return out;
}

/** The longest k such that the last k characters of `text` begin some form (a whole form counts too). */
function longestStartOfForm(text: string, forms: readonly string[]): number {
  let best = 0;
  for (const form of forms) {
    // From the longest candidate down: the first that fits is this form's longest.
    for (let k = Math.min(form.length, text.length); k > best; k--) {
      if (startsAt(text, text.length - k, form, k)) {
        best = k;
        break;
      }
    }
  }
  return best;
}

/** text[start..start+k) === form[0..k), without making either slice. */
function startsAt(text: string, start: number, form: string, k: number): boolean {
  for (let j = 0; j < k; j++) if (text.charCodeAt(start + j) !== form.charCodeAt(j)) return false;
  return true;
}

/**
 * Where to cut a redacted text to at most `max` characters: never inside a run of `*` (a
 * `***` that hides a secret) nor between the halves of a surrogate pair.
 */
export function safeCut(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let p = max;
  while (p > 0 && text[p - 1] === '*' && text[p] === '*') p--;
  const code = text.charCodeAt(p - 1);
  if (code >= 0xd800 && code <= 0xdbff) p--;
  return p;
}
