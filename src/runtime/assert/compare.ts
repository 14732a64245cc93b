// Comparison semantics of asserts. YAML authors quote freely, so a number and a numeric
// string are equal (`$.data.count == '42'` passes for 42), as are a boolean and its text
// ('true'). Everything else compares strictly; objects and arrays compare deeply.

const DECIMAL = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The number a value stands for: a number, or a decimal numeric string; else undefined. */
function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : v;
  if (typeof v === 'string' && DECIMAL.test(v)) return Number(v);
  return undefined;
}

export function looseEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === 'number' && tb === 'string') || (ta === 'string' && tb === 'number')) {
    const na = asNumber(a);
    return na !== undefined && na === asNumber(b);
  }
  if ((ta === 'boolean' && tb === 'string') || (ta === 'string' && tb === 'boolean')) return String(a) === String(b);
  if (a !== null && b !== null && ta === 'object' && tb === 'object') return deepEquals(a as object, b as object);
  return false;
}

function deepEquals(a: object, b: object): boolean {
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => looseEquals(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && looseEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Order of two values: numerically when both are numbers (or numeric strings), else by
 * character codes when both are strings (ISO dates sort right). Undefined: not comparable.
 */
export function order(a: unknown, b: unknown): number | undefined {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/** `contains`: substring of a string, element of a list (loose equality), key of an object. */
export function contains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === 'string') return needle !== null && needle !== undefined && haystack.includes(String(needle));
  if (Array.isArray(haystack)) return haystack.some((v) => looseEquals(v, needle));
  if (haystack !== null && typeof haystack === 'object') return typeof needle === 'string' && Object.hasOwn(haystack, needle);
  return false;
}

/** `matches`: a string, number or boolean tested as text; a list passes when one element does. */
export function matches(value: unknown, re: RegExp): boolean {
  if (Array.isArray(value)) return value.some((v) => matches(v, re));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return re.test(String(value));
  return false;
}
