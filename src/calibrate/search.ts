// Where a field of a given name is in a JSON response: every place, as `$.data…` paths.
// A proposal is made only when exactly one place fits (nothing is guessed).
import { scalarText } from '../project/index.js';
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

/**
 * The body fields a 400/422 answer names as required: JSON Schema validators'
 * `missingProperty`, `field`/`param`/`property` entries, FastAPI's `loc`, LoopBack juggler's
 * `presence` codes, and messages such as "must have required property 'title'", "name is
 * required" or "'title' can't be blank".
 */
export function requiredFields(body: string): string[] {
  const names = new Set<string>();
  const MESSAGES = [
    /required property ['"]([^'"]+)['"]/gi,
    /['"`]?([A-Za-z_][\w.-]*)['"`]? (?:is|are) (?:required|missing)/gi,
    /missing (?:required )?(?:field|property|parameter)s?:? ['"`]?([A-Za-z_][\w.-]*)/gi,
    /['"`]([A-Za-z_][\w.-]*)['"`] (?:can't|cannot|must not|may not) be (?:blank|empty|null)/gi,
  ];
  for (const re of MESSAGES) for (const m of body.matchAll(re)) names.add(m[1]);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [...names];
  }
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const said = JSON.stringify(o).toLowerCase();
      for (const key of ['missingProperty', 'field', 'param', 'property']) {
        if (typeof o[key] === 'string' && (key === 'missingProperty' || said.includes('required') || said.includes('missing'))) names.add(o[key]);
      }
      // LoopBack's juggler: `codes: { title: ['presence'] }`
      if (o.codes && typeof o.codes === 'object') {
        for (const [field, codes] of Object.entries(o.codes)) if (Array.isArray(codes) && codes.includes('presence')) names.add(field);
      }
      if (Array.isArray(o.loc) && /required|missing/i.test(scalarText(o.msg ?? o.type))) {
        const last = o.loc[o.loc.length - 1];
        if (typeof last === 'string') names.add(last);
      }
      Object.values(o).forEach(walk);
    }
  };
  walk(json);
  return [...names];
}
