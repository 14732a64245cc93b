// `{{$.faker.<name>}}`: generated test data from @faker-js/faker (English). Faker is big,
// so it is imported before a run that uses it (loadFaker), never at start-up.
import type { Faker } from '@faker-js/faker';
import type { FakerName } from '../../../graph/index.js';
import { FlowError } from '../../../errors.js';
import type { RenderContext } from '../context.js';
import type { Resolver } from '../frame.js';

type Generator = (f: Faker) => string | number;

/**
 * One generator per documented name (the list is in src/graph/faker.ts, so lint knows it
 * too). A name is matched without case and without `_`, so `firstName`, `first_name` and
 * `firstname` are the same. `number` is a number (it stays one in a JSON body when it is the
 * whole value); all others are strings.
 */
const FAKER_GENERATORS: Readonly<Record<FakerName, Generator>> = {
  email: (f) => f.internet.email(),
  // E.164 (`+15551234567`): the form APIs accept most often; faker's default has extensions.
  phone: (f) => f.phone.number({ style: 'international' }),
  name: (f) => f.person.fullName(),
  firstName: (f) => f.person.firstName(),
  lastName: (f) => f.person.lastName(),
  username: (f) => f.internet.username(),
  password: (f) => f.internet.password({ length: 16 }),
  word: (f) => f.lorem.word(),
  sentence: (f) => f.lorem.sentence(),
  paragraph: (f) => f.lorem.paragraph(),
  number: (f) => f.number.int({ min: 1, max: 1_000_000 }),
  uuid: (f) => f.string.uuid(),
  company: (f) => f.company.name(),
  street: (f) => f.location.streetAddress(),
  city: (f) => f.location.city(),
  zip: (f) => f.location.zipCode(),
  country: (f) => f.location.country(),
  url: (f) => f.internet.url(),
  ipv4: (f) => f.internet.ipv4(),
};

export { FAKER_NAMES } from '../../../graph/index.js';

// The English-only entry loads in a seventh of the time of the full package (all locales),
// which only a seeded faker needs. Loaded by `loadFaker` before a run whose templates use it.
let english: Faker | undefined;
let full: typeof import('@faker-js/faker') | undefined;
const seeded = new WeakMap<object, Faker>();

/** Load what `{{$.faker.*}}` needs for this context; rendering is synchronous afterwards. */
export async function loadFaker(ctx: Pick<RenderContext, 'faker'>): Promise<void> {
  if (ctx.faker) full ??= await import('@faker-js/faker');
  else english ??= (await import('@faker-js/faker/locale/en')).faker;
}

/** The faker a render draws from: seeded when the context has a seed (`$.uuid` draws from it too). */
export function fakerFor(ctx: RenderContext): Faker {
  if (!ctx.faker) return english ?? notLoaded();
  const options = ctx.faker;
  // One seeded instance per options object: its sequence continues across renders. Never
  // the shared instance: seeding that would change other users' sequences.
  let f = seeded.get(options);
  if (!f) {
    const m = full ?? notLoaded();
    f = new m.Faker({ locale: [m.en, m.base] });
    f.seed(options.seed);
    seeded.set(options, f);
  }
  return f;
}

/** A caller rendered a faker reference without `loadFaker` first: our bug, said plainly. */
function notLoaded(): never {
  throw new FlowError('E_INTERNAL', '{{$.faker.*}} was rendered before faker was loaded (loadFaker)');
}

// An unknown name never gets here: the parser refuses it (E_TEMPLATE_SYNTAX, which lint reports).
export const faker: Resolver<{ kind: 'faker'; name: FakerName }> = (expr, frame) => FAKER_GENERATORS[expr.name](fakerFor(frame.ctx));
