// The body fields a 400/422 names, one test per error shape real frameworks send (bodies as
// those frameworks write them), and the value proposed for a field: from its schema, else
// from its name through faker.
import { describe, expect, test } from 'vitest';
import { namedFields, SHAPES } from '../../src/calibrate/error-fields.js';
import { fieldOf, withField } from '../../src/calibrate/model.js';
import { valueFor } from '../../src/calibrate/values.js';

const named = (body: unknown) => namedFields(typeof body === 'string' ? body : JSON.stringify(body));

describe('namedFields: one shape each', () => {
  test('errors[].extensions.field (GraphQL-style errors over REST, Directus)', () => {
    const body = {
      errors: [
        {
          message: 'Validation failed for field "title". Value is required.',
          extensions: { field: 'title', type: 'required', code: 'FAILED_VALIDATION' },
        },
      ],
    };
    expect(named(body)).toEqual(['title']);
  });
  test('Cornice/colander details[].name (Kinto): dotted, body only', () => {
    const body = {
      code: 400,
      errno: 107,
      error: 'Invalid parameters',
      message: 'data.id in body: Required',
      details: [
        { location: 'body', name: 'data.id', description: 'Required' },
        { location: 'querystring', name: '_limit', description: 'not an int' },
      ],
    };
    expect(named(body)).toEqual(['data.id']);
  });
  test('RFC 9457 problem details: invalid-params[].name and errors[].pointer', () => {
    expect(named({ type: 'https://example.net/validation-error', title: 'bad', 'invalid-params': [{ name: 'age', reason: 'must be positive' }] })).toEqual([
      'age',
    ]);
    expect(named({ type: 'about:blank', status: 422, errors: [{ detail: 'must be a string', pointer: '#/profile/color' }] })).toEqual(['profile.color']);
  });
  test('FastAPI/Pydantic detail[].loc: the body part of the location', () => {
    const body = {
      detail: [
        { type: 'missing', loc: ['body', 'data', 'email'], msg: 'Field required', input: {} },
        { type: 'missing', loc: ['query', 'page'], msg: 'Field required' },
      ],
    };
    expect(named(body)).toEqual(['data.email']);
  });
  test('Rails and Laravel errors: {field: [...]}', () => {
    expect(named({ errors: { title: ["can't be blank"], 'author.name': ['is required'] } })).toEqual(['title', 'author.name']);
    expect(named({ message: 'The title field is required.', errors: { title: ['The title field is required.'] } })).toEqual(['title']);
  });
  test('Spring errors[].field', () => {
    const body = { status: 400, error: 'Bad Request', errors: [{ field: 'sku', defaultMessage: 'must not be null', objectName: 'item' }] };
    expect(named(body)).toEqual(['sku']);
  });
  test('JSON:API errors[].source.pointer', () => {
    expect(named({ errors: [{ status: '422', source: { pointer: '/data/attributes/title' }, detail: "can't be blank" }] })).toEqual(['data.attributes.title']);
  });
  test('express-validator errors[].path (v7) and errors[].param (v6), body only', () => {
    expect(named({ errors: [{ type: 'field', msg: 'Invalid value', path: 'email', location: 'body' }] })).toEqual(['email']);
    expect(
      named({
        errors: [
          { msg: 'Invalid value', param: 'name', location: 'body' },
          { msg: 'x', param: 'q', location: 'query' },
        ],
      }),
    ).toEqual(['name']);
  });
  test('Ajv missingProperty (LoopBack 4), under its path, inside `error`', () => {
    const body = {
      error: {
        statusCode: 422,
        details: [{ path: '/data', code: 'required', message: "must have required property 'title'", info: { missingProperty: 'title' } }],
      },
    };
    expect(named(body)).toEqual(['data.title']);
  });
  test('LoopBack juggler details.codes presence', () => {
    const body = { error: { statusCode: 422, details: { codes: { title: ['presence'], desc: ['length'] } } } };
    expect(named(body)).toEqual(['title']);
  });
  test('details[].path, a JSON pointer to the field itself (Unleash 7): body only, never the word "property"', () => {
    // as Unleash 7.5 answers a POST /api/admin/projects/default/features without `name`
    const body = {
      id: '8b0b8e2c',
      name: 'ValidationError',
      message: 'Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information.',
      details: [
        {
          path: '/body/features',
          description: 'The `/body/features` property is required. It was not present on the data you sent.',
          message: 'The `/body/features` property is required. It was not present on the data you sent.',
        },
      ],
    };
    expect(named(body)).toEqual(['features']);
    expect(
      named({
        details: [
          { path: '/body/x', message: 'must be string' },
          { path: '/query/limit', message: 'must be integer' },
        ],
      }),
    ).toEqual(['x']);
    expect(named({ details: [{ path: '/body/strategy/name', message: 'required' }] })).toEqual(['strategy.name']);
    // the message alone: "property" is where a message puts a field's name, never one
    expect(named({ message: 'The `/body/features` property is required.' })).toEqual([]);
  });
  test('every shape has a test above', () => {
    expect(SHAPES).toHaveLength(11);
  });
  test('plain messages, when no shape names a field; a sentence is never a field', () => {
    expect(named('name is required')).toEqual(['name']);
    expect(named({ message: "must have required property 'title'" })).toEqual(['title']);
    expect(named({ errors: [{ field: 'not a field name', message: 'x' }] })).toEqual([]);
    expect(named({ error: 'Invalid parameters' })).toEqual([]);
  });
});

describe('namedFields: sentences that name a field (Rails full messages, as Redmine answers a 422)', () => {
  test('matched to the known properties by name: case-insensitive, whole words, an `_id` read as its noun', () => {
    const known = ['issue', 'issue.project_id', 'issue.subject', 'issue.tracker_id', 'issue.due_date', 'issue.start_date'];
    expect(namedFields(JSON.stringify({ errors: ['Subject cannot be blank'] }), known)).toEqual(['issue.subject']);
    expect(namedFields(JSON.stringify({ errors: ['Project cannot be blank', 'Tracker cannot be blank'] }), known)).toEqual([
      'issue.project_id',
      'issue.tracker_id',
    ]);
    // the longest name the sentence holds wins; a word inside another word is no match
    expect(namedFields(JSON.stringify({ errors: ['Due date must be greater than start date'] }), known)).toEqual(['issue.due_date']);
    expect(namedFields(JSON.stringify({ errors: ['Subjects are closed'] }), ['subject'])).toEqual(['subjects']);
  });
  test("without a known property, the sentence's subject; a sentence that names nothing names nothing", () => {
    expect(namedFields(JSON.stringify({ errors: ['Subject cannot be blank'] }))).toEqual(['subject']);
    expect(namedFields(JSON.stringify({ errors: ['Due date is not a valid date'] }))).toEqual(['due_date']);
    expect(namedFields(JSON.stringify({ errors: ['Something went wrong, please try again later'] }))).toEqual([]);
    // a subject with an article is what the sentence is about, not an attribute's label (Redmine, a relation to a sub-task)
    expect(namedFields(JSON.stringify({ errors: ['An issue cannot be linked to one of its subtasks'] }))).toEqual([]);
    expect(namedFields(JSON.stringify({ errors: ['The parent task is invalid'] }))).toEqual([]);
    expect(namedFields(JSON.stringify({ errors: ['Parent task is invalid'] }))).toEqual(['parent_task']);
  });
  test('details[].message (Joi behind a feature-flag server): a known property only, never a subject', () => {
    const answer = JSON.stringify({
      name: 'BadDataError',
      message: 'Request validation failed: your request body or params contain invalid data: You must specify username or email',
      details: [{ message: 'You must specify username or email' }],
    });
    expect(namedFields(answer, ['rootRole', 'username', 'email', 'name'])).toEqual(['username']);
    expect(namedFields(answer, ['rootRole'])).toEqual([]);
  });
});

describe('valueFor', () => {
  test('from the schema: enum, example, default, bounds, format', () => {
    expect(valueFor('status', { type: 'string', enum: ['draft', 'published'] })).toBe('draft');
    expect(valueFor('title', { type: 'string', example: 'Hello' })).toBe('Hello');
    expect(valueFor('qty', { type: 'integer', minimum: 3 })).toBe(3);
    expect(valueFor('ok', { type: 'boolean' })).toBe(true);
    expect(valueFor('contact', { type: 'string', format: 'email' })).toBe('{{$.faker.email}}');
  });
  test('else from its name through faker', () => {
    expect(valueFor('email')).toBe('{{$.faker.email}}');
    expect(valueFor('data.id')).toBe('{{$.faker.uuid}}');
    expect(valueFor('title')).toBe('{{$.faker.word}}');
    expect(valueFor('first_name')).toBe('{{$.faker.firstName}}');
    expect(valueFor('description')).toBe('{{$.faker.sentence}}');
  });
  test('a dotted name becomes nested keys, next to what the body has', () => {
    const body = withField({ data: { name: 'x' } }, ['data', 'id'], 'b1');
    expect(body).toEqual({ data: { name: 'x', id: 'b1' } });
    expect(fieldOf(body, ['data', 'id'])).toBe('b1');
    expect(withField(undefined, ['a', 'b'], 1)).toEqual({ a: { b: 1 } });
  });
});
