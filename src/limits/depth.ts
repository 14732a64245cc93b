// How deep and how large a parsed value is, measured with an explicit stack: the value may
// come from anywhere (a response, a description, an import input), and the recursive walks
// after this one (Ajv, structured clone, the importers' readers) would overflow the stack on
// what this refuses. The walk stops at the first bound passed, so it costs no more than that.

export interface Measure {
  /** the deepest nesting of arrays and objects seen (a scalar is 0, `{}` is 1) */
  depth: number;
  /** arrays, objects and scalars counted */
  values: number;
  /** which bound was passed first, if any */
  over?: 'depth' | 'values';
}

export interface ValueBound {
  maxDepth: number;
  /** default: no limit */
  maxValues?: number;
}

/** Measure `value` against the bound; `over` says which was passed (the walk stops there). */
export function measure(value: unknown, bound: ValueBound): Measure {
  const maxValues = bound.maxValues ?? Infinity;
  const out: Measure = { depth: 0, values: 0 };
  // Pairs of (container, depth): children are pushed, never recursed into.
  const stack: Array<[unknown, number]> = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length) {
    const [v, parent] = stack.pop()!;
    if (++out.values > maxValues) return { ...out, over: 'values' };
    if (v === null || typeof v !== 'object') continue;
    // a shared or circular object (a resolved $ref) is measured once
    if (seen.has(v)) continue;
    seen.add(v);
    const depth = parent + 1;
    if (depth > out.depth) out.depth = depth;
    if (depth > bound.maxDepth) return { ...out, over: 'depth' };
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth]);
  }
  return out;
}

/**
 * The nesting a parsed document (an API description, an import input) may have: js-yaml's own
 * default `maxDepth`, which YAML input already meets, so JSON meets the same.
 */
export const MAX_DOCUMENT_DEPTH = 100;
