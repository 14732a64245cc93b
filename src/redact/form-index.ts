// Finding every known secret form in a text in one pass. Forms are indexed by a hash of their
// first characters; a rolling hash over the text finds the candidates at each position, and
// the longest candidate that matches there wins. Linear in the text whatever the number of
// secrets, nothing to compile, and a new secret costs one insertion (a run that logs in
// hundreds of actors learns hundreds of tokens while it prints).

/** Forms shorter than this are not indexed (see MIN_SUBSTRING_LENGTH in index.ts). */
export const KEY_CHARS = 4;
const BASE = 31;
const BASE_POW = BASE ** (KEY_CHARS - 1);

function hashAt(text: string, at: number): number {
  let h = 0;
  for (let k = 0; k < KEY_CHARS; k++) h = (Math.imul(h, BASE) + text.charCodeAt(at + k)) | 0;
  return h;
}

/** The forms that share one hash of their first characters. */
interface Bucket {
  forms: Set<string>;
  /** the distinct lengths of `forms`, longest first */
  lengths: number[];
}

export class FormIndex {
  private readonly buckets = new Map<number, Bucket>();

  get size(): number {
    return this.buckets.size;
  }

  add(form: string): void {
    if (form.length < KEY_CHARS) return;
    const h = hashAt(form, 0);
    let bucket = this.buckets.get(h);
    if (!bucket) this.buckets.set(h, (bucket = { forms: new Set(), lengths: [] }));
    bucket.forms.add(form);
    if (!bucket.lengths.includes(form.length)) {
      bucket.lengths.push(form.length);
      bucket.lengths.sort((a, b) => b - a);
    }
  }

  /** The text with every indexed form replaced by `mask`, longest match first, left to right. */
  replace(text: string, mask: string): string {
    return maskSpans(text, this.spans(text), mask);
  }

  /**
   * Where the indexed forms are in the text: `[start, end)` spans, longest first at a position,
   * left to right, never overlapping. `accept`: a match it refuses is passed over, as if the
   * form were not there.
   */
  spans(text: string, accept?: (at: number, end: number) => boolean): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    if (this.buckets.size === 0 || text.length < KEY_CHARS) return out;
    let i = 0;
    let h = hashAt(text, 0);
    while (i + KEY_CHARS <= text.length) {
      const bucket = this.buckets.get(h);
      const length = bucket ? longestAt(bucket, text, i, accept) : 0;
      if (length) {
        out.push([i, i + length]);
        i += length;
        if (i + KEY_CHARS <= text.length) h = hashAt(text, i);
        continue;
      }
      if (i + KEY_CHARS < text.length) {
        h = (Math.imul(h - Math.imul(text.charCodeAt(i), BASE_POW), BASE) + text.charCodeAt(i + KEY_CHARS)) | 0;
      }
      i++;
    }
    return out;
  }
}

/**
 * The length of the longest form of the bucket at `at`, or 0. One lookup per distinct length,
 * not one comparison per form: tokens of one issuer often share their first characters (every
 * JWT of a server starts with the same header), and a run may hold hundreds of them.
 */
function longestAt(bucket: Bucket, text: string, at: number, accept?: (at: number, end: number) => boolean): number {
  for (const length of bucket.lengths) {
    if (at + length <= text.length && bucket.forms.has(text.slice(at, at + length)) && (!accept || accept(at, at + length))) return length;
  }
  return 0;
}

/** The text with each span (in any order, overlapping or not) replaced by `mask`. */
export function maskSpans(text: string, spans: Array<[number, number]>, mask: string): string {
  if (!spans.length) return text;
  const sorted = [...spans].sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  let out = '';
  let last = 0;
  for (const [a, b] of sorted) {
    if (b <= last || b <= a) continue;
    out += text.slice(last, Math.max(a, last)) + (a >= last ? mask : '');
    last = b;
  }
  return out + text.slice(last);
}
