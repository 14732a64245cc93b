// Names derived from words of a project or an input: shared by the importer and `flow lint --fix`
// (which names the secrets it creates), so both spell a secret's name the same way.

/** `findByStatus` -> `find_by_status`, `pull-requests` -> `pull_requests`, `3d_secure` -> `_3d_secure`. */
export function snake(text: string): string {
  const s = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  if (!s) return '';
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

/** `UPPER_SNAKE` for secret names. */
export function upperSnake(text: string): string {
  return snake(text).replace(/^_/, '').toUpperCase() || 'SECRET';
}

/** A name not yet in `taken`: `name`, else `name_2`, `name_3`, … */
export function unique(name: string, taken: { has(n: string): boolean }): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name}_${i}`)) return `${name}_${i}`;
}
