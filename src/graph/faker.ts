// The names `{{$.faker.<name>}}` accepts (docs/format.md#builtins). They live here, not in the runtime, so
// that the graph (and lint) can reject a misspelt name before a run; the runtime keys its
// generators by this list, so the two cannot drift apart.

export const FAKER_NAMES = [
  'email',
  'phone',
  'name',
  'firstName',
  'lastName',
  'username',
  'password',
  'word',
  'sentence',
  'paragraph',
  'number',
  'uuid',
  'company',
  'street',
  'city',
  'zip',
  'country',
  'url',
  'ipv4',
] as const;

export type FakerName = (typeof FAKER_NAMES)[number];

/** A name is matched without case and without `_`: `firstName`, `first_name`, `FIRSTNAME`. */
export function fakerKey(name: string): string {
  return name.replace(/_/g, '').toLowerCase();
}

const BY_KEY = new Map<string, FakerName>(FAKER_NAMES.map((n) => [fakerKey(n), n]));

/** The documented name that `written` spells, or undefined when it spells none. */
export function fakerName(written: string): FakerName | undefined {
  return BY_KEY.get(fakerKey(written));
}
