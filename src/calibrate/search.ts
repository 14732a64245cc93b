// Where a field of a given name is in a JSON response: every place, as `$.data…` paths.
// A proposal is made only when exactly one place fits (nothing is guessed).
type Segment = string | number;

/** The field an extraction path asks for: its last name (`$.data.items[*].id` -> `id`). */
export function fieldName(path: string): string | undefined {
  const m = /(?:\.([A-Za-z_$][\w$-]*)|\[\s*['"]([^'"]+)['"]\s*\])\s*$/.exec(path);
  return m?.[1] ?? m?.[2];
}

/** What onePlace gives for a place whose path holds a secret (never a path: those start `$.data`). */
export const SECRET_PLACE = '<a key that is a secret>';

/**
 * The one path where `name` is in `json`, written as an extraction path; undefined when it is
 * nowhere or in more than one place. For a fan-out path (`[*]`), array indices become `[*]`,
 * so the items of one list count as one place. A place under a key that `isSecret` (an
 * answer keyed by an API key or a login token) is SECRET_PLACE: its path is never written.
 */
export function onePlace(json: unknown, name: string, fanOut: boolean, isSecret: (key: string) => boolean = () => false): string | undefined {
  const found = new Set<string>();
  const walk = (value: unknown, at: Segment[], secret: boolean) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, fanOut ? '*' : i], secret));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const under = secret || isSecret(k);
        if (k === name && v !== null && typeof v !== 'object') found.add(under ? SECRET_PLACE : render([...at, k]));
        walk(v, [...at, k], under);
      }
    }
  };
  walk(json, [], false);
  // one place: a list where a list was described, else the one field (an object where the
  // description said a list is the commonest departure)
  return found.size === 1 ? [...found][0] : undefined;
}

function render(segments: Segment[]): string {
  let out = '$.data';
  for (const s of segments) {
    if (s === '*') out += '[*]';
    else if (typeof s === 'number') out += `[${s}]`;
    else out += /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `['${s.replace(/'/g, "\\'")}']`;
  }
  return out;
}
