// What calibrate reads in an answer: the one place a field is (exactly one, or nothing is
// proposed). The fields a 400/422 names: error-fields.test.ts.
import { describe, expect, test } from 'vitest';
import { fieldName, onePlace } from '../../src/calibrate/search.js';

describe('onePlace', () => {
  test('an object where a list was described: the one field', () => {
    expect(onePlace({ data: { id: 5, name: 'w' } }, 'id', true)).toBe('$.data.data.id');
  });
  test('a fan-out path: the items of one list are one place', () => {
    expect(onePlace({ items: [{ id: 1 }, { id: 2 }] }, 'id', true)).toBe('$.data.items[*].id');
    expect(onePlace({ items: [{ id: 1 }] }, 'id', false)).toBe('$.data.items[0].id');
  });
  test('two places, none, or only an object of that name: nothing proposed', () => {
    expect(onePlace({ data: { id: 1, owner: { id: 2 } } }, 'id', false)).toBeUndefined();
    expect(onePlace({ data: { name: 'x' } }, 'id', false)).toBeUndefined();
    expect(onePlace({ id: { nested: 1 } }, 'id', false)).toBeUndefined();
  });
  test('a key that is not an identifier is quoted', () => {
    expect(onePlace({ 'the-item': { 'item-id': 3 } }, 'item-id', false)).toBe("$.data['the-item']['item-id']");
  });
  test('the field a path asks for', () => {
    expect(fieldName('$.data.data[*].id')).toBe('id');
    expect(fieldName("$.data['item-id']")).toBe('item-id');
  });
});
