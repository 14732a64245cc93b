// Extraction, table-driven per source, on responses built in memory (the HTTP tests and
// the httpbin test read real responses through the same code).
import { describe, expect, test } from 'vitest';
import type { ExtractSource } from '../../../src/project/types.js';
import { checkExtract, extractAll, extractOne } from '../../../src/runtime/extract/index.js';
import { createResponse, type FlowResponse } from '../../../src/http/response.js';
import { isFanOutPath, readPath, checkPath } from '../../../src/runtime/extract/paths.js';

const body = {
  id: 'ord_1',
  total: 42.5,
  paid: false,
  note: null,
  customer: { email: 'a@example.com', 'first-name': 'Ann' },
  items: [
    { sku: 'A', qty: 1, status: 'active' },
    { sku: 'B', qty: 2, status: 'gone' },
  ],
  empty: [],
};

const jsonRes = createResponse({
  status: 201,
  headers: { 'content-type': 'application/json', location: '/orders/ord_1', 'x-request-id': 'rq-9', 'set-cookie': ['sid=s1; Path=/', 'theme=dark'] },
  body: JSON.stringify(body),
  url: 'http://api/orders',
});

const xml =
  '<?xml version="1.0"?><slideshow title="Sample" date="2024"><slide type="all"><title>Wake up</title></slide><slide><title>Overview</title><item>Why</item></slide></slideshow>';
const xmlRes = createResponse({ status: 200, headers: { 'content-type': 'application/xml' }, body: xml });
const html = '<!DOCTYPE html><html><head><title>Home</title></head><body><h1 class="t">Hello &amp; welcome</h1><a href="/next">next</a><br></body></html>';
const htmlRes = createResponse({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html });
const textRes = createResponse({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'token=abc123; expires=3600\nuser: ann' });
const notJson = createResponse({ status: 502, headers: { 'content-type': 'text/html' }, body: `<html>${'Bad gateway '.repeat(40)}</html>` });

describe('readPath: the path roots', () => {
  test.each<[string, FlowResponse, boolean, unknown[]]>([
    ['$.data.id', jsonRes, true, ['ord_1']],
    ['$.data.total', jsonRes, true, [42.5]],
    ['$.data.paid', jsonRes, true, [false]],
    ['$.data.note', jsonRes, true, [null]],
    ['$.data.customer.email', jsonRes, true, ['a@example.com']],
    ["$.data.customer['first-name']", jsonRes, true, ['Ann']],
    ['$.data.customer.first-name', jsonRes, true, ['Ann']],
    ['$.data.items[1].sku', jsonRes, true, ['B']],
    ['$.data.items.length', jsonRes, true, [2]],
    ['$.data.items[*].sku', jsonRes, true, ['A', 'B']],
    ['$.data.items.*.qty', jsonRes, true, [1, 2]],
    ["$.data.items[?(@.status=='active')].sku", jsonRes, true, ['A']],
    ['$.data..sku', jsonRes, true, ['A', 'B']],
    ['$.data.items[-1:].sku', jsonRes, true, ['B']],
    ['$.data', jsonRes, true, [body]],
    ['$.data.missing', jsonRes, false, []],
    ['$.data.items[9].sku', jsonRes, false, []],
    ['$.data.id.deeper', jsonRes, false, []],
    ['$.data.empty[*].x', jsonRes, false, []],
    ['$.headers.Location', jsonRes, true, ['/orders/ord_1']],
    ['$.headers.X-REQUEST-ID', jsonRes, true, ['rq-9']],
    ["$.headers['x-request-id']", jsonRes, true, ['rq-9']],
    ['$.headers.set-cookie', jsonRes, true, ['sid=s1; Path=/', 'theme=dark']],
    ['$.headers.X-Missing', jsonRes, false, []],
    ['$.cookies.sid', jsonRes, true, ['s1']],
    ['$.cookies.theme', jsonRes, true, ['dark']],
    ['$.cookies.SID', jsonRes, false, []],
    ['$.status_code', jsonRes, true, [201]],
    ['$.body', textRes, true, ['token=abc123; expires=3600\nuser: ann']],
  ])('%s', (path, res, found, values) => {
    expect(readPath(path, res)).toEqual({ found, values });
  });

  test.each([
    ['$.data.items[*].sku', true],
    ['$.data.items.*', true],
    ['$.data.items[0].sku', false],
    ['$.data.items[?(@.a)].sku', false],
    ['$.headers.X', false],
  ])('isFanOutPath(%s) = %s', (path, many) => {
    expect(isFanOutPath(path)).toBe(many);
  });

  test.each(['data.id', '$.foo', '$.headers', '$.headers.', '$.cookies', '$.data.', '$.status', '$'])('invalid path %s', (path) => {
    expect(checkPath(path)).toBeTypeOf('string');
    expect(() => readPath(path, jsonRes)).toThrow(expect.objectContaining({ code: 'E_PATH_INVALID' }));
  });

  test('a $.data path on a non-JSON body: E_NOT_JSON; other roots still work', () => {
    expect(() => readPath('$.data.id', notJson)).toThrow(expect.objectContaining({ code: 'E_NOT_JSON' }));
    expect(readPath('$.status_code', notJson).values).toEqual([502]);
  });
});

type Row = [name: string, source: ExtractSource, path: string, res: FlowResponse, expected: unknown];

describe.each<[string, Row[]]>([
  [
    'jsonpath',
    [
      ['id', 'jsonpath', '$.data.id', jsonRes, 'ord_1'],
      ['customer', 'jsonpath', '$.data.customer', jsonRes, body.customer],
      ['firstActive', 'jsonpath', "$.data.items[?(@.status=='active')].sku", jsonRes, 'A'],
      ['location', 'jsonpath', '$.headers.location', jsonRes, '/orders/ord_1'],
      ['session', 'jsonpath', '$.cookies.sid', jsonRes, 's1'],
      ['status', 'jsonpath', '$.status_code', jsonRes, 201],
      ['nothing', 'jsonpath', '$.data.note', jsonRes, null],
    ],
  ],
  [
    'regex',
    [
      ['token', 'regex', 'token=(\\w+)', textRes, 'abc123'],
      ['whole', 'regex', 'expires=\\d+', textRes, 'expires=3600'],
      ['user', 'regex', '/USER: (\\w+)/i', textRes, 'ann'],
      ['firstGroupThatMatched', 'regex', '(?:x=(\\d+)|token=(\\w+))', textRes, 'abc123'],
      ['fromJson', 'regex', '"id":"([^"]+)"', jsonRes, 'ord_1'],
    ],
  ],
  [
    'xpath',
    [
      ['title', 'xpath', '/slideshow/@title', xmlRes, 'Sample'],
      ['firstSlide', 'xpath', '//slide/title', xmlRes, 'Wake up'],
      ['slides', 'xpath', 'count(//slide)', xmlRes, 2],
      ['hasItem', 'xpath', 'boolean(//item)', xmlRes, true],
      ['text', 'xpath', 'string(//slide[2]/item)', xmlRes, 'Why'],
      ['heading', 'xpath', '//h1', htmlRes, 'Hello & welcome'],
      ['link', 'xpath', '//a/@href', htmlRes, '/next'],
      ['pageTitle', 'xpath', '//title/text()', htmlRes, 'Home'],
    ],
  ],
])('extract with %s', (_source, rows) => {
  test.each(rows)('%s: %s %s', (name, source, path, res, expected) => {
    const out = extractAll([{ name, source, path }], res);
    expect(out.errors).toEqual([]);
    expect(out.values).toEqual({ [name]: expected });
    expect(out.many).toEqual({});
  });
});

describe('fan-out', () => {
  test('[*] gives one value per match, under many', () => {
    const out = extractAll([{ name: 'sku', source: 'jsonpath', path: '$.data.items[*].sku' }], jsonRes);
    expect(out).toEqual({ values: {}, many: { sku: ['A', 'B'] }, errors: [] });
  });

  test('an empty list is a valid answer: zero instances, no error', () => {
    const out = extractAll([{ name: 'x', source: 'jsonpath', path: '$.data.empty[*].x' }], jsonRes);
    expect(out).toEqual({ values: {}, many: { x: [] }, errors: [] });
  });

  test('items without the field: E_EXTRACT_FAILED, not silence', () => {
    const out = extractAll([{ name: 'ids', source: 'jsonpath', path: '$.data.items[*].idd' }], jsonRes);
    expect(out.errors[0]).toMatchObject({ code: 'E_EXTRACT_FAILED' });
    expect(out.errors[0].message).toContain('2 item(s)');
  });
});

describe('failures name the variable and the path, never the body', () => {
  test.each<[string, ExtractSource, string, string, FlowResponse]>([
    ['token', 'jsonpath', '$.data.token', 'E_EXTRACT_FAILED', jsonRes],
    ['hdr', 'jsonpath', '$.headers.X-None', 'E_EXTRACT_FAILED', jsonRes],
    ['ck', 'jsonpath', '$.cookies.none', 'E_EXTRACT_FAILED', jsonRes],
    ['id', 'jsonpath', '$.data.id', 'E_NOT_JSON', notJson],
    ['bad', 'jsonpath', '$.nope', 'E_EXTRACT_FAILED', jsonRes],
    ['re', 'regex', 'nomatch=(\\d+)', 'E_EXTRACT_FAILED', textRes],
    ['re2', 'regex', '(unclosed', 'E_EXTRACT_FAILED', textRes],
    ['xp', 'xpath', '//nothing', 'E_EXTRACT_FAILED', xmlRes],
    ['xp2', 'xpath', '//a[', 'E_EXTRACT_FAILED', xmlRes],
    ['xp3', 'xpath', '//a', 'E_EXTRACT_FAILED', jsonRes],
  ])('%s (%s %s) -> %s', (name, source, path, code, res) => {
    const out = extractAll([{ name, source, path }], res);
    expect(out.values).toEqual({});
    expect(out.errors).toHaveLength(1);
    const err = out.errors[0];
    expect(err.code).toBe(code);
    expect(err.message).toContain(`"${name}"`);
    expect(err.message).toContain(path);
    expect(err.details).toMatchObject({ variable: name, path });
    expect(err.message.length).toBeLessThan(300); // an excerpt at most, never the whole body
  });

  test('E_NOT_JSON keeps an excerpt of at most 200 characters in details', () => {
    const err = extractAll([{ name: 'id', source: 'jsonpath', path: '$.data.id' }], notJson).errors[0];
    expect(err.details?.excerpt).toBeTypeOf('string');
    expect((err.details?.excerpt as string).length).toBeLessThanOrEqual(200);
  });

  test('a truncated body: E_BODY_TRUNCATED', () => {
    const cut = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":[1,2,', truncated: true, limitBytes: 10 });
    expect(extractAll([{ name: 'a', source: 'jsonpath', path: '$.data.a' }], cut).errors[0].code).toBe('E_BODY_TRUNCATED');
  });

  test('one failure does not stop the others', () => {
    const out = extractAll(
      [
        { name: 'id', source: 'jsonpath', path: '$.data.id' },
        { name: 'nope', source: 'jsonpath', path: '$.data.nope' },
        { name: 'loc', source: 'jsonpath', path: '$.headers.location' },
      ],
      jsonRes,
    );
    expect(out.values).toEqual({ id: 'ord_1', loc: '/orders/ord_1' });
    expect(out.errors.map((e) => e.details?.variable)).toEqual(['nope']);
  });

  test('extractOne throws the same coded error', () => {
    expect(() => extractOne({ name: 'x', source: 'jsonpath', path: '$.data.x' }, jsonRes)).toThrow(expect.objectContaining({ code: 'E_EXTRACT_FAILED' }));
  });
});

describe('checkExtract (for lint)', () => {
  test.each<[ExtractSource, string, boolean]>([
    ['jsonpath', '$.data.x', true],
    ['jsonpath', '$.foo', false],
    ['regex', 'a(b)', true],
    ['regex', 'a(b', false],
    ['xpath', '//a/@b', true],
    ['xpath', '//a[', false],
  ])('%s %s ok=%s', (source, path, ok) => {
    expect(checkExtract({ source, path }) === undefined).toBe(ok);
  });
});
