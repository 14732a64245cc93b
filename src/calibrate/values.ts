// A value for a body field a 400/422 named: from its schema in the description when there is
// one (enum, example, default, type, format, bounds), else from its name through faker
// (`{{$.faker.email}}` for `email`). Only a proposal: the server's 2xx with it proves it.
import type { FakerName } from '../graph/index.js';
import type { TemplateValue } from '../project/index.js';

type Schema = Record<string, unknown>;

const fake = (name: FakerName) => `{{$.faker.${name}}}`;

/** Name fragments -> the faker generator that fits, first match wins (checked on the last key, lower case, no `_`/`-`). */
const BY_NAME: ReadonlyArray<[RegExp, FakerName]> = [
  [/e?mail/, 'email'],
  [/phone|mobile|tel/, 'phone'],
  [/^(user(name)?|login|handle|nick(name)?)$/, 'username'],
  [/password|passwd|pass$/, 'password'],
  [/^first(name)?$|givenname/, 'firstName'],
  [/^last(name)?$|surname|familyname/, 'lastName'],
  [/^(full)?name$|author|owner/, 'name'],
  [/(^|[^a-z])id$|uuid|guid|^id/, 'uuid'],
  [/url|uri|link|website|homepage/, 'url'],
  [/company|organi[sz]ation|org$/, 'company'],
  [/street|address/, 'street'],
  [/city|town/, 'city'],
  [/zip|postcode|postalcode/, 'zip'],
  [/country/, 'country'],
  [/^ip|ipaddress/, 'ipv4'],
  [/count|amount|quantity|qty|age|price|size|number|total|year|rank|order|position|score/, 'number'],
  [/description|summary|body|content|text|comment|message|note|bio/, 'sentence'],
];

export function valueFor(field: string, schema?: Schema): TemplateValue {
  const fromSchema = schema ? schemaValue(schema) : undefined;
  if (fromSchema !== undefined) return fromSchema;
  const key = (field.split('.').at(-1) ?? field).toLowerCase().replace(/[_-]/g, '');
  for (const [re, name] of BY_NAME) if (re.test(key)) return fake(name);
  return fake('word');
}

const scalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

/** The schema's own example, a plain value, a list or a map; undefined when it gives none. */
export function exampleOf(s: Schema): TemplateValue | undefined {
  return scalar(s.example) || plainJson(s.example) ? s.example : undefined;
}

const isMap = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

/** A list or map from the description, small and holding no `{{` (which would read as a reference). */
function plainJson(v: unknown): v is TemplateValue {
  if (!Array.isArray(v) && !isMap(v)) return false;
  const text = JSON.stringify(v);
  return text.length <= 2000 && !text.includes('{{');
}

/** The plain value the schema names itself: its enum's first, its const, its example(s). */
function named(s: Schema): string | number | boolean | undefined {
  if (Array.isArray(s.enum) && s.enum.some(scalar)) return s.enum.find(scalar)!;
  if (scalar(s.const)) return s.const;
  if (scalar(s.example)) return s.example;
  if (Array.isArray(s.examples) && s.examples.some(scalar)) return s.examples.find(scalar)!;
  return undefined;
}

/** A plain value the description gives (enum, const, example, default); undefined when only a type says what fits. */
export function givenValue(s: Schema): string | number | boolean | undefined {
  return named(s) ?? (scalar(s.default) ? s.default : undefined);
}

function schemaValue(s: Schema, depth = 0): TemplateValue | undefined {
  if (depth > 4) return undefined;
  const given = named(s);
  if (given !== undefined) return given;
  // a list or an object the description gives as its example (`["development", "production"]`)
  if (plainJson(s.example)) return s.example;
  if (scalar(s.default)) return s.default;
  const type: unknown = Array.isArray(s.type) ? (s.type as unknown[]).find((t) => t !== 'null') : s.type;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  switch (type) {
    case 'integer':
    case 'number': {
      const min = num(s.minimum) ?? (num(s.exclusiveMinimum) !== undefined ? num(s.exclusiveMinimum)! + 1 : undefined);
      const max = num(s.maximum);
      if (min !== undefined) return type === 'integer' ? Math.ceil(min) : min;
      return max !== undefined && max < 1 ? max : 1;
    }
    case 'boolean':
      return true;
    case 'array': {
      // `minItems: 1` wants an item: one from the items' schema, when it gives a value
      const item = num(s.minItems) && isMap(s.items) ? schemaValue(s.items, depth + 1) : undefined;
      return item === undefined ? [] : [item];
    }
    case 'object':
      return {};
    case 'string': {
      const format = typeof s.format === 'string' ? s.format : '';
      const byFormat: Record<string, TemplateValue> = {
        email: fake('email'),
        uuid: fake('uuid'),
        uri: fake('url'),
        url: fake('url'),
        ipv4: fake('ipv4'),
        date: '2024-01-01',
        'date-time': '2024-01-01T00:00:00Z',
      };
      if (byFormat[format] !== undefined) return byFormat[format];
      const min = num(s.minLength);
      // a word fits most bounds; a long minimum gets a sentence-long literal
      return min !== undefined && min > 8 ? 'x'.repeat(Math.min(min, 1000)) : undefined;
    }
    default:
      return undefined;
  }
}
