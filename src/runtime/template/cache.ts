// Parsed templates by string. The same few hundred strings are rendered for every request,
// so parsing once matters; the bound keeps a long watch session from growing without end.
import { parseTemplate, type TemplatePart } from '../../graph/template.js';

const MAX_ENTRIES = 2000;
const cache = new Map<string, TemplatePart[]>();

export function parseCached(text: string): TemplatePart[] {
  let parts = cache.get(text);
  if (parts === undefined) {
    parts = parseTemplate(text);
    // Evict the oldest insertion: simple, and hot strings are re-added at once.
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(text, parts);
  }
  return parts;
}
