// A value of an input document read as text, or as a map. The documents are anyone's: a `name` or `value`
// that is an object or a list is no text at all, and must not become "[object Object]".

/** Strings as written, numbers and booleans as JSON writes them, anything else the fallback. */
export function scalarText(v: unknown, fallback = ''): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return fallback;
}

/** A map (a JSON object), not a list, a scalar or nothing. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
