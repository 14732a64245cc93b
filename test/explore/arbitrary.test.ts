// The schema-to-arbitrary mapping of flow explore: drawn "valid" values are valid by Ajv
// before any filter (so few are thrown away), the boundaries are drawn (max length, bounds,
// enum values, formats, non-ASCII), and every drawn "invalid" value that Ajv refuses is one
// mutation away from valid: a wrong type, out of range, too long, a required field missing.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidArbitrary, Sieve, validArbitrary, validWithEdges } from '../../src/explore/arbitrary.js';

const SCHEMA = {
  type: 'object',
  required: ['title', 'price', 'kind'],
  properties: {
    id: { type: 'string', readOnly: true },
    title: { type: 'string', minLength: 1, maxLength: 12 },
    price: { type: 'number', minimum: 0, maximum: 100 },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    kind: { enum: ['a', 'b'] },
    email: { type: 'string', format: 'email' },
    at: { type: 'string', format: 'date-time' },
    tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 4 } },
    owner: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 3 } } },
  },
};

const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validate = ajv.compile(SCHEMA);
const draw = (arb: fc.Arbitrary<unknown>, n = 600) => fc.sample(arb, { seed: 42, numRuns: n });

describe('explore: schema to arbitrary', () => {
  it('valid draws pass Ajv (all of them, before any filter) and never send a readOnly field', () => {
    const values = draw(validArbitrary(SCHEMA));
    const bad = values.filter((v) => !validate(v));
    expect(bad.slice(0, 3)).toEqual([]);
    expect(values.some((v) => 'id' in (v as object))).toBe(false);
  });

  it('valid draws reach the boundaries: the longest title, both price bounds, every enum value, non-ASCII text', () => {
    const values = draw(validArbitrary(SCHEMA)) as Array<Record<string, unknown>>;
    const titles = values.map((v) => v.title as string);
    expect(titles.some((t) => [...t].length === 12)).toBe(true);
    expect(titles.some((t) => [...t].length === 1)).toBe(true);
    expect(titles.some((t) => /[^\x20-\x7e]/.test(t))).toBe(true);
    expect(values.some((v) => v.price === 0)).toBe(true);
    expect(values.some((v) => v.price === 100)).toBe(true);
    expect(new Set(values.map((v) => v.kind))).toEqual(new Set(['a', 'b']));
  });

  it('invalid draws: most break the schema, each way is drawn, and none touches a field kept as written', () => {
    const values = draw(invalidArbitrary(SCHEMA, new Set(['kind']))!);
    const refused = values.filter((v) => !validate(v));
    expect(refused.length).toBeGreaterThan(values.length * 0.8);
    const keywords = new Set<string>();
    for (const v of refused) {
      validate(v);
      for (const e of validate.errors ?? []) keywords.add(e.keyword);
    }
    for (const k of ['type', 'required', 'maxLength', 'minimum', 'maximum']) expect(keywords).toContain(k);
    const objects = refused.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
    expect(objects.every((v) => v.kind === 'a' || v.kind === 'b')).toBe(true);
  });

  it('a schema with nothing to break has no invalid arbitrary', () => {
    expect(invalidArbitrary({})).toBeUndefined();
  });
});

describe('explore: edges first, bounded draws', () => {
  const first = (arb: fc.Arbitrary<unknown>, n: number) => fc.sample(arb, { seed: 1, numRuns: n });
  const priority = (p: Record<string, unknown>) => ({ type: 'object', required: ['p'], properties: { p: { type: 'integer', ...p } } });

  it('invalid draws start with one past each bound, then the required property left out, then the wrong types', () => {
    const values = first(invalidArbitrary(priority({ minimum: 1, maximum: 5 }))!, 5) as Array<Record<string, unknown>>;
    expect(values.map((v) => ('p' in v ? v.p : 'missing'))).toEqual([0, 6, 'missing', 'x', null]);
  });

  it.each([
    ['3.1 numbers', { exclusiveMinimum: 1, exclusiveMaximum: 5 }],
    ['3.0 booleans', { minimum: 1, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true }],
  ])('exclusive bounds (%s): the valid edges are the first whole numbers inside, the invalid ones the bounds', (_, bounds) => {
    const valid = first(validWithEdges(priority(bounds)), 2) as Array<Record<string, unknown>>;
    expect(valid.map((v) => v.p)).toEqual([2, 4]);
    const invalid = first(invalidArbitrary(priority(bounds))!, 2) as Array<Record<string, unknown>>;
    expect(invalid.map((v) => v.p)).toEqual([1, 5]);
  });

  it('lengths and enums: the shortest and longest string and one past each, each enum value and one outside', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', minLength: 2, maxLength: 4 }, k: { enum: ['x', 'y'] } } };
    const valid = first(validWithEdges(schema), 5) as Array<Record<string, unknown>>;
    expect([...valid.slice(0, 3).map((v) => v.s), ...valid.slice(3).map((v) => v.k)]).toEqual(['aa', 'aaaa', 'éééé', 'x', 'y']);
    const invalid = first(invalidArbitrary(schema)!, 3) as Array<Record<string, unknown>>;
    expect([...invalid.slice(0, 2).map((v) => v.s), invalid[2].k]).toEqual(['aaaaa', 'a', 'not-x-x']);
  });

  it('integer bounds past Number.MAX_SAFE_INTEGER are drawn within the safe integers', () => {
    const values = draw(validArbitrary({ type: 'integer', minimum: 0, maximum: 2 ** 63 }), 300);
    expect(values.every((v) => Number.isSafeInteger(v) && (v as number) >= 0)).toBe(true);
  });

  it('a filter no value passes gives up: the fallback, or the last draw; never a hang', () => {
    expect(
      draw(
        new Sieve(
          fc.integer(),
          () => false,
          () => 42,
        ),
        5,
      ),
    ).toEqual([42, 42, 42, 42, 42]);
    expect(draw(new Sieve(fc.integer(), () => false), 5)).toHaveLength(5);
    // a keep that throws (Ajv past its budget) refuses the value
    expect(
      draw(
        new Sieve(
          fc.constant(1),
          () => {
            throw new Error('over budget');
          },
          () => 2,
        ),
        2,
      ),
    ).toEqual([2, 2]);
  });
});
