// JSON pointers into a description (RFC 6901) and its local `$ref`s. The description is
// untrusted: a pointer to nothing is undefined, never a throw, and a chain of `$ref`s is
// followed a bounded number of hops and stops where it would come back to itself.

/** `$ref` hops followed at most from one place (a chain longer than this is not a description's). */
const MAX_HOPS = 16;

/** An object as a map; anything else (an array, a scalar, nothing) as `{}`. */
export function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** One key as a pointer segment: `~` -> `~0`, `/` -> `~1`. */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/paths/~1pets/get` -> `['paths', '/pets', 'get']`; '' (the whole document) -> `[]`. */
export function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `pointer` (array indexes included); undefined where nothing is. */
export function pointerValue(doc: unknown, pointer: string): unknown {
  let n = doc;
  for (const key of pointerSegments(pointer)) {
    if (Array.isArray(n)) n = n[Number(key)];
    else if (n && typeof n === 'object' && Object.hasOwn(n, key)) n = (n as Record<string, unknown>)[key];
    else return undefined;
  }
  return n;
}

/**
 * Where the object at `pointer` really is: through its local `$ref` (`#/components/…`) and the
 * `$ref` found there, and so on; the pointer itself when it holds none. An external or
 * circular `$ref` stops the walk where it is.
 */
export function followRefs(doc: unknown, pointer: string): string {
  const seen = new Set<string>([pointer]);
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    const ref = record(pointerValue(doc, pointer)).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/') || seen.has(ref.slice(1))) break;
    pointer = ref.slice(1);
    seen.add(pointer);
  }
  return pointer;
}
