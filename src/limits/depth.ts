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

/**
 * Measure `value`, a parsed document (no shared or circular objects: a cycle would only pass
 * the depth bound), against the bound; `over` says which was passed (the walk stops there).
 * On the path of every contract check: two flat stacks, no allocation per value.
 */
export function measure(value: unknown, bound: ValueBound): Measure {
  const maxValues = bound.maxValues ?? Infinity;
  let values = 1;
  let deepest = 0;
  const stack: object[] = [];
  const depths: number[] = [];
  if (value !== null && typeof value === 'object') {
    stack.push(value);
    depths.push(1);
  }
  while (stack.length) {
    const v = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (depth > bound.maxDepth) return { depth, values, over: 'depth' };
    }
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    values += children.length;
    if (values > maxValues) return { depth: deepest, values, over: 'values' };
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return { depth: deepest, values };
}

/**
 * The nesting a parsed document (an API description, an import input) may have: js-yaml's own
 * default `maxDepth`, which YAML input already meets, so JSON meets the same.
 */
export const MAX_DOCUMENT_DEPTH = 100;
