// What calibrate reads in an answer: the one place a field is (exactly one, or nothing is
// proposed), and the required fields a 400/422 body names, in the forms real servers use.
import { describe, expect, test } from 'vitest';
import { fieldName, onePlace, requiredFields } from '../../src/calibrate/search.js';

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

describe('requiredFields', () => {
  test('JSON Schema (Ajv, LoopBack 4) missingProperty', () => {
    const body = {
      error: { statusCode: 422, details: [{ path: '', code: 'required', message: "must have required property 'title'", info: { missingProperty: 'title' } }] },
    };
    expect(requiredFields(JSON.stringify(body))).toEqual(['title']);
  });
  test("LoopBack juggler presence codes and \"'x' can't be blank\"", () => {
    const body = {
      error: {
        statusCode: 422,
        message: "The 'Todo' instance is not valid. Details: 'title' can't be blank (value: undefined).",
        details: { codes: { title: ['presence'], desc: ['length'] } },
      },
    };
    expect(requiredFields(JSON.stringify(body))).toEqual(['title']);
  });
  test('FastAPI loc, field lists, and plain messages', () => {
    expect(requiredFields(JSON.stringify({ detail: [{ loc: ['body', 'email'], msg: 'field required', type: 'value_error.missing' }] }))).toEqual(['email']);
    expect(requiredFields(JSON.stringify({ errors: [{ field: 'sku', message: 'is required' }] }))).toEqual(['sku']);
    expect(requiredFields('name is required')).toEqual(['name']);
  });
  test('a 422 that names no missing field names nothing', () => {
    expect(requiredFields(JSON.stringify({ errors: [{ field: 'qty', message: 'must be positive' }] }))).toEqual([]);
  });
});
