// Minimal edits of a YAML file. The yaml library writes an edited document back in its own
// layout: a `key: # comment` moves to the next line, spacing before comments is reset, and
// so on, so a one-line change could rewrite lines all over a user's file. Here the library
// renders the document twice, before and after the change; the lines that differ between
// the two renders are the change, and they are placed into the original text next to the
// lines they follow there. Lines are matched with the `diff` package (Myers' algorithm).
import type * as Diff from 'diff';
import { lazy } from './lazy.js';

/** Loaded on first use: only an edit needs it, and most commands edit nothing. */
const diff = lazy<typeof Diff>('diff');

/** Past this many differing lines the alignment gives up (the caller writes the render). */
const MAX_EDIT_LENGTH = 5000;

/** One replacement in the original's lines: `remove` lines at `at`, then `insert`. */
interface Edit {
  at: number;
  remove: number;
  insert: string[];
}

/**
 * The original text with the change that turns `before` into `after`, or undefined when a
 * changed line cannot be placed (the caller then writes `after` whole).
 * @param before the library's render of the original document
 * @param after the library's render of the changed document, with the same options
 */
export function spliceChange(original: string, before: string, after: string): string | undefined {
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const lines = original.split(/\r?\n/);
  const b = before.split('\n');
  const toOriginal = alignment(b, lines);
  const changes = diff().diffArrays(b, after.split('\n'), { maxEditLength: MAX_EDIT_LENGTH });
  if (!toOriginal || !changes) return undefined;
  const edits: Edit[] = [];
  let at = 0; // index in `before`
  for (const part of changes) {
    const n = part.value.length;
    if (part.removed) {
      const start = toOriginal[at];
      for (let i = 0; i < n; i++) if (start === undefined || toOriginal[at + i] !== start + i) return undefined;
      edits.push({ at: start!, remove: n, insert: [] });
      at += n;
    } else if (part.added) {
      const last = edits.at(-1);
      // A change of lines: the removal just recorded ends where this addition goes.
      if (last && last.remove && last.insert.length === 0 && toOriginal[at - 1] === last.at + last.remove - 1) {
        last.insert = part.value;
        continue;
      }
      const place = insertionPoint(toOriginal, at, lines.length);
      if (place === undefined) return undefined;
      edits.push({ at: place, remove: 0, insert: part.value });
    } else {
      at += n;
    }
  }
  const out: string[] = [];
  let next = 0;
  for (const e of edits) {
    if (e.at < next) return undefined; // overlapping places: not a clean splice
    out.push(...lines.slice(next, e.at), ...e.insert);
    next = e.at + e.remove;
  }
  out.push(...lines.slice(next));
  return out.join(eol);
}

/**
 * For each line of the render, its line in the original, when the two are the same line
 * up to spacing (the library resets spaces before a comment and after a key's colon).
 * Undefined when the two differ in too many lines to align.
 */
function alignment(render: string[], original: string[]): Array<number | undefined> | undefined {
  const parts = diff().diffArrays(render.map(normalize), original.map(normalize), { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return undefined;
  const map = new Array<number | undefined>(render.length);
  let r = 0;
  let o = 0;
  for (const part of parts) {
    const n = part.value.length;
    if (part.removed) r += n;
    else if (part.added) o += n;
    else {
      for (let i = 0; i < n; i++) map[r + i] = o + i;
      r += n;
      o += n;
    }
  }
  return map;
}

/** Added lines go after the render line before them (appending to a block), else before the next one. */
function insertionPoint(toOriginal: Array<number | undefined>, at: number, originalLength: number): number | undefined {
  if (at === 0) return 0;
  const previous = toOriginal[at - 1];
  if (previous !== undefined) return previous + 1;
  if (at >= toOriginal.length) return originalLength;
  return toOriginal[at];
}

function normalize(line: string): string {
  return line.trimEnd().replace(/\s+#/, ' #').replace(/:\s+/, ': ');
}
