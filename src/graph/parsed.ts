// Parsed templates by text, shared by the graph (which finds every reference of a project)
// and the runtime (which renders the same strings for every request): a string is parsed once
// per process, not once per graph build and again at its first render. Bounded, so that a
// long watch session does not grow it without end.
import { parseTemplate, type TemplatePart } from './template.js';

/** Above the distinct templates of a 1,000-operation project (about 1,300 in the benchmark's). */
const MAX_ENTRIES = 5000;
const cache = new Map<string, TemplatePart[]>();

/** The parts of a template; callers never change them. */
export function parseCached(text: string): TemplatePart[] {
  let parts = cache.get(text);
  if (parts === undefined) {
    parts = parseTemplate(text);
    // Full: start again (hot strings come back at once). Evicting the oldest entry one at a
    // time made every insertion past the bound walk the deleted slots at the head of the Map
    // (V8 compacts them only when it grows): 0.26 s of a 10,000-operation lint.
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(text, parts);
  }
  return parts;
}
