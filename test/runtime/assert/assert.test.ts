// The assert grammar: each operator table-driven, literals, templates, syntax errors.
import { describe, expect, test } from 'vitest';
import { checkAssert, evaluateAssert, parseAssert } from '../../../src/runtime/assert/index.js';
import { createResponse } from '../../../src/http/response.js';
import { parseTemplate } from '../../../src/graph/template.js';

const res = createResponse({
  status: 201,
  headers: { 'content-type': 'application/json', 'x-rate-remaining': '42', 'set-cookie': 'sid=s-1; Path=/' },
  body: JSON.stringify({
    id: 'ord_123',
    status: 'active',
    count: 42,
    price: 9.5,
    paid: true,
    note: null,
    created: '2024-05-01T10:00:00Z',
    tags: ['new', 'promo', 7],
    items: [{ sku: 'A1' }, { sku: 'B2' }],
    meta: { page: 1 },
    label: 'it\'s "quoted"',
  }),
});
const htmlRes = createResponse({ status: 500, headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' });

const run = (expr: string, rendered?: unknown) => evaluateAssert(parseAssert(expr), res, rendered);

describe.each<[string, Array<[string, boolean]>]>([
  [
    '==',
    [
      ["$.data.status == 'active'", true],
      ['$.data.status == "active"', true],
      ["$.data.status == 'Active'", false],
      ['$.data.count == 42', true],
      ["$.data.count == '42'", true], // a number equals its quoted text
      ["$.data.count == '42.0'", true],
      ["$.data.count == '0x2a'", false], // decimal text only
      ['$.data.count == 43', false],
      ['$.data.price == 9.5', true],
      ['$.data.paid == true', true],
      ["$.data.paid == 'true'", true],
      ['$.data.paid == false', false],
      ['$.data.note == null', true],
      ["$.data.note == 'null'", false],
      ['$.status_code == 201', true],
      ['$.headers.X-Rate-Remaining == 42', true],
      ["$.cookies.sid == 's-1'", true],
      ["$.data.label == 'it\\'s \"quoted\"'", true],
      ["$.data.missing == 'x'", false],
      ["$.data.items[*].sku == 'A1'", false], // a list is not a string
    ],
  ],
  [
    '!=',
    [
      ["$.data.status != 'gone'", true],
      ["$.data.status != 'active'", false],
      ["$.data.count != '42'", false],
      ['$.data.missing != 1', false], // nothing there fails every comparison
    ],
  ],
  [
    '< <= > >=',
    [
      ['$.data.count > 41', true],
      ['$.data.count > 42', false],
      ['$.data.count >= 42', true],
      ['$.data.count < 100', true],
      ['$.data.count <= 41', false],
      ['$.headers.x-rate-remaining > 10', true], // header text compared as a number
      ["$.data.price < '10'", true],
      ["$.data.created > '2024-01-01'", true], // strings: ISO dates order right
      ["$.data.created < '2024-01-01'", false],
      ['$.data.status > 1', false], // not comparable
      ['$.status_code >= 200', true],
      ['$.status_code < 300', true],
      ['$.data.tags.length >= 3', true],
    ],
  ],
  [
    'contains',
    [
      ["$.data.id contains 'ord_'", true],
      ["$.data.id contains 'xyz'", false],
      ["$.data.tags contains 'promo'", true],
      ["$.data.tags contains 'nope'", false],
      ['$.data.tags contains 7', true],
      ["$.data.tags contains '7'", true],
      ["$.data.items[*].sku contains 'B2'", true],
      ["$.data.meta contains 'page'", true],
      ["$.body contains 'ord_123'", true],
      ['$.data.count contains 4', false], // numbers are not searched
    ],
  ],
  [
    'matches',
    [
      ["$.data.id matches '^ord_[0-9]+$'", true],
      ["$.data.id matches '^ORD_'", false],
      ["$.data.id matches '/^ORD_/i'", true],
      ["$.data.count matches '^4\\d$'", true],
      ["$.data.items[*].sku matches '^B'", true],
      ["$.headers.content-type matches 'json'", true],
    ],
  ],
  [
    'exists / not exists',
    [
      ['$.data.id exists', true],
      ['$.data.note exists', true], // null is there
      ['$.data.missing exists', false],
      ['$.data.missing not exists', true],
      ['$.data.id not exists', false],
      ['$.headers.Content-Type exists', true],
      ['$.cookies.other exists', false],
    ],
  ],
])('%s', (_op, rows) => {
  test.each(rows)('%s -> %s', (expr, pass) => {
    const out = run(expr);
    expect(out.pass).toBe(pass);
    expect(out.message).toContain(expr);
  });
});

describe('outcome details', () => {
  test('a failure reports the actual value', () => {
    const out = run("$.data.status == 'gone'");
    expect(out).toMatchObject({ pass: false, actual: 'active', expected: 'gone', expectation: '"gone"' });
    // the expression once, then what was expected and what came
    expect(out.message).toBe(`$.data.status == 'gone' failed: expected "gone", actual "active"`);
    expect(out.reason).toBeUndefined(); // the actual value says it all
  });

  test('a failure with another reason says it instead of the actual value', () => {
    expect(run('$.data.missing == 1').message).toBe('$.data.missing == 1 failed: nothing at $.data.missing');
    expect(run('$.data.missing == 1').reason).toBe('nothing at $.data.missing');
    expect(run('$.data.id not exists').message).toMatch(/^\$\.data\.id not exists failed: expected nothing, actual .+$/);
    expect(run('$.data.id exists').reason).toBeUndefined(); // a pass has no reason
  });

  test('a [*] path gives the list as actual', () => {
    expect(run("$.data.items[*].sku contains 'A1'").actual).toEqual(['A1', 'B2']);
  });

  test('nothing at the path says so', () => {
    const out = run('$.data.missing == 1');
    expect(out.actual).toBeUndefined();
    expect(out.message).toContain('nothing at $.data.missing');
  });

  test('a non-JSON body fails the assertion with E_NOT_JSON, without throwing', () => {
    const out = evaluateAssert(parseAssert("$.data.id == 'x'"), htmlRes);
    expect(out.pass).toBe(false);
    expect(out.error?.code).toBe('E_NOT_JSON');
    expect(out.reason).toBe(out.error?.message);
    expect(evaluateAssert(parseAssert('$.status_code == 500'), htmlRes).pass).toBe(true);
  });

  test('ordering values that cannot be ordered says why', () => {
    expect(run('$.data.status > 1').message).toContain('cannot order');
    expect(run('$.data.status > 1').reason).toBe('cannot order "active" and 1');
  });
});

describe('{{…}} literals are rendered by the caller', () => {
  test('parsed as a template', () => {
    expect(parseAssert('$.data.id == {{order.id}}').expected).toMatchObject({ kind: 'template', text: '{{order.id}}', quoted: false });
    expect(parseAssert("$.data.id == 'pre-{{order.id}}'").expected).toMatchObject({ kind: 'template', text: 'pre-{{order.id}}', quoted: true });
    expect(parseAssert("$.data.x == {{$.base64.encode('}}')}}").expected).toMatchObject({ kind: 'template', text: "{{$.base64.encode('}}')}}", quoted: false });
    // parsed with the assertion: a run renders the parts without parsing the text again
    expect(parseAssert("$.data.id == 'pre-{{order.id}}'").expected).toMatchObject({ parts: parseTemplate('pre-{{order.id}}') });
  });

  test.each<[string, unknown, boolean]>([
    ['$.data.id == {{order.id}}', 'ord_123', true],
    ['$.data.id == {{order.id}}', 'ord_999', false],
    ['$.data.count == {{order.count}}', '42', true],
    ['$.data.count == {{order.count}}', 42, true],
    ["$.data.id == 'ord_{{order.n}}'", 'ord_123', true], // the whole quoted text, rendered
    ["$.data.count == '{{order.count}}'", 42, true], // quoted: compared as text
    ['$.data.count > {{env.min}}', '10', true],
    ['$.data.id matches {{env.pattern}}', '^ord_', true],
  ])('%s with %j -> %s', (expr, rendered, pass) => {
    expect(run(expr, rendered).pass).toBe(pass);
  });

  test('not rendered: a failure that says so', () => {
    const out = run('$.data.id == {{order.id}}');
    expect(out.pass).toBe(false);
    expect(out.message).toContain('not rendered');
  });
});

describe('syntax errors: E_ASSERT_SYNTAX with the column', () => {
  test.each<[string, number, string]>([
    ['', 1, 'empty'],
    ['   ', 4, 'empty'],
    ["data.id == 'x'", 1, 'starting with $'],
    ["$.foo == 'x'", 1, 'does not start with'],
    ['$.data.id', 10, 'expected an operator'],
    ["$.data.id = 'x'", 11, 'use =='],
    ["$.data.id equals 'x'", 11, 'expected an operator'],
    ['$.data.id ==', 13, 'expected a value'],
    ['$.data.id == active', 14, "quote text: 'active'"],
    ["$.data.id == 'active", 14, 'unterminated string'],
    ["$.data.id == 'a' 'b'", 18, 'unexpected text'],
    ['$.data.id == 1 2', 16, 'unexpected text'],
    ['$.data.id == {{order.id', 14, 'unclosed "{{"'],
    ["$.data.id matches '(unclosed'", 19, 'not a valid regular expression'],
    ['$.data.id matches 5', 19, 'matches needs a quoted regular expression'],
    ['$.data.id > true', 13, 'compares numbers or strings'],
    ['$.data.id not', 14, 'expected "exists" after "not"'],
    ['$.data.id exists now', 18, 'unexpected text'],
    ["$.data.items[?(@.a == 'x'", 1, 'unclosed'],
  ])('%j at column %i: %s', (expr, column, text) => {
    let err: { code?: string; message: string; details?: Record<string, unknown> } | undefined;
    try {
      parseAssert(expr);
    } catch (e) {
      err = e as typeof err;
    }
    expect(err?.code).toBe('E_ASSERT_SYNTAX');
    expect(err?.details?.column).toBe(column);
    expect(err?.message).toContain(text);
    expect(checkAssert(expr)?.code).toBe('E_ASSERT_SYNTAX');
  });

  test.each([
    "$.data.items[?(@.status == 'active')].sku exists",
    '$.data.x==1',
    "  $.data.id   ==   'a b'  ",
    "$.headers['X-Id'] == 'x'",
    '$.data.n >= -1.5e3',
  ])('valid: %s', (expr) => {
    expect(checkAssert(expr)).toBeUndefined();
  });

  test('the parse keeps the pieces', () => {
    expect(parseAssert("$.data.items[?(@.status == 'active')].sku contains 'A1'")).toMatchObject({
      path: "$.data.items[?(@.status == 'active')].sku",
      op: 'contains',
      expected: { kind: 'value', value: 'A1' },
    });
    expect(parseAssert('$.data.x not exists')).toMatchObject({ path: '$.data.x', op: 'not exists' });
  });
});
