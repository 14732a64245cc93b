// Finding every known secret form in a text in one pass. Forms are indexed by a hash of their
// first characters; a rolling hash over the text finds the candidates at each position, and
// the longest candidate that matches there wins. Linear in the text whatever the number of
// secrets, nothing to compile, and a new secret costs one insertion (a run that logs in
// hundreds of actors learns hundreds of tokens while it prints).

/** Forms shorter than this are not indexed (see MIN_SUBSTRING_LENGTH in redact.ts). */
export const KEY_CHARS = 4;
const BASE = 31;
const BASE_POW = BASE ** (KEY_CHARS - 1);

function hashAt(text: string, at: number): number {
  let h = 0;
  for (let k = 0; k < KEY_CHARS; k++) h = (Math.imul(h, BASE) + text.charCodeAt(at + k)) | 0;
  return h;
}

export class FormIndex {
  /** hash of the first KEY_CHARS characters -> forms, longest first */
  private readonly buckets = new Map<number, string[]>();

  get size(): number {
    return this.buckets.size;
  }

  add(form: string): void {
    if (form.length < KEY_CHARS) return;
    const h = hashAt(form, 0);
    const list = this.buckets.get(h);
    if (!list) this.buckets.set(h, [form]);
    else if (!list.includes(form)) {
      list.push(form);
      list.sort((a, b) => b.length - a.length);
    }
  }

  /** The text with every indexed form replaced by `mask`, longest match first, left to right. */
  replace(text: string, mask: string): string {
    if (this.buckets.size === 0 || text.length < KEY_CHARS) return text;
    let out = '';
    let last = 0;
    let i = 0;
    let h = hashAt(text, 0);
    while (i + KEY_CHARS <= text.length) {
      const list = this.buckets.get(h);
      const hit = list && list.find((form) => text.startsWith(form, i));
      if (hit) {
        out += text.slice(last, i) + mask;
        i += hit.length;
        last = i;
        if (i + KEY_CHARS <= text.length) h = hashAt(text, i);
        continue;
      }
      if (i + KEY_CHARS < text.length) {
        h = (Math.imul(h - Math.imul(text.charCodeAt(i), BASE_POW), BASE) + text.charCodeAt(i + KEY_CHARS)) | 0;
      }
      i++;
    }
    return last === 0 ? text : out + text.slice(last);
  }
}
