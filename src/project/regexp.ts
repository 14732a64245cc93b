// Text put into a regular expression as itself: every stage builds patterns from names and
// values it did not write (a resource, a field, a path, a value a server quoted).

/** `a.b(1)` -> `a\.b\(1\)`: matched literally inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
