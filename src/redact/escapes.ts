// A secret in JSON may be spelt with `\uXXXX` escapes for any of its characters: Go escapes
// `<`, `>` and `&` by default, Python (ensure_ascii) every non-ASCII character, PHP writes `/`
// as `\/`. Listing every spelling as a form would be exponential; instead the text is read
// as a JSON decoder would (a "view"), the forms are found in the view, and each match is
// mapped back to the characters of the text that spell it.

/** The text with its JSON escapes decoded; `at(i)` is where view character i starts in the text (`at(view.length)` is its end). */
interface EscapeView {
  view: string;
  at(i: number): number;
}

const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/** A JSON escape; a backslash that begins none is kept as it is. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;

/** Escapes that spell a character other than as JSON.stringify would: only then is a view needed. */
const UNUSUAL = /\\[u/]/;

/** One level of JSON escapes decoded; undefined when the text has no `\uXXXX` nor `\/` (the plain JSON forms cover the rest). */
export function decodeEscapes(text: string): EscapeView | undefined {
  if (!UNUSUAL.test(text)) return undefined;
  // Sparse mapping: the view index of each escape, and the text characters saved up to and including it.
  const escapes: number[] = [];
  const saved: number[] = [];
  let total = 0;
  const view = text.replace(ESCAPE, (escape: string, hex: string | undefined, simple: string, offset: number) => {
    escapes.push(offset - total);
    total += escape.length - 1;
    saved.push(total);
    return hex ? String.fromCharCode(parseInt(hex, 16)) : SIMPLE[simple];
  });
  const at = (i: number): number => {
    // escapes before view index i
    let lo = 0;
    let hi = escapes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (escapes[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return i + (lo ? saved[lo - 1] : 0);
  };
  return { view, at };
}

/**
 * Spans of `text` that spell a match in its decoded view, one and two levels deep (a JSON
 * string holding JSON text escapes its escapes: `\\u003c`). `find` gives `[start, end)` spans of a view.
 */
export function escapedSpans(text: string, find: (view: string) => Array<[number, number]>): Array<[number, number]> {
  const one = decodeEscapes(text);
  if (!one) return [];
  const spans = find(one.view).map(([a, b]): [number, number] => [one.at(a), one.at(b)]);
  const two = decodeEscapes(one.view);
  if (two) for (const [a, b] of find(two.view)) spans.push([one.at(two.at(a)), one.at(two.at(b))]);
  return spans;
}
