// The syntax of assert expressions and extraction paths lives in src/graph, so that lint checks
// exactly what the runtime parses (lint may not import the runtime). The runtime re-exports the
// same functions: one implementation, one set of messages.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as graph from '../../src/graph/index.js';
import { checkAssert, parseAssert } from '../../src/graph/assert-syntax.js';
import { checkExtract, checkPath, compileRegex, compileXPath, isFanOutPath, parsePath } from '../../src/graph/extract-syntax.js';
import * as runtimeAssert from '../../src/runtime/assert/index.js';
import * as runtimeExtract from '../../src/runtime/extract/index.js';
import * as response from '../../src/runtime/extract/paths.js';
import type { ExtractSource } from '../../src/project/index.js';

describe('assert syntax (graph stage)', () => {
  it('parses the grammar of docs/format.md#assert-grammar', () => {
    expect(parseAssert("$.data.items[*].sku contains 'A1'")).toMatchObject({
      path: '$.data.items[*].sku',
      op: 'contains',
      expected: { kind: 'value', value: 'A1' },
    });
    expect(parseAssert('$.status_code < 300')).toMatchObject({ op: '<', expected: { value: 300 } });
    expect(parseAssert('$.headers.X-Id not exists')).toMatchObject({ path: '$.headers.X-Id', op: 'not exists' });
    expect(parseAssert("$.body matches '^ok'").regex).toBeInstanceOf(RegExp);
  });

  it.each([
    ["$.id == 'x'", 1, '"$.id" does not start with one of $.data…'],
    ["$.data.state = 'done'", 14, 'use == to compare'],
    ['$.data.name == Alice', 16, "quote text: 'Alice'"],
    ["$.data.id matches '(x'", 19, 'not a valid regular expression'],
  ])('%j: E_ASSERT_SYNTAX at column %i', (expr, column, text) => {
    const err = checkAssert(expr);
    expect(err).toMatchObject({ code: 'E_ASSERT_SYNTAX', details: { column } });
    expect(err?.message).toContain(text);
    expect(() => parseAssert(expr)).toThrow(err!.message);
  });

  it('parses a text once (the runner asks per request)', () => {
    expect(parseAssert('$.data.cached == 1')).toBe(parseAssert('$.data.cached == 1'));
    expect(checkAssert('$.data.cached == 1')).toBeUndefined();
  });
});

describe('extraction syntax (graph stage)', () => {
  it.each<[string, string | undefined]>([
    ['$.data.id', undefined],
    ['$.data[*].id', undefined],
    ['$.headers.Location', undefined],
    ["$.cookies['sid']", undefined],
    ['$.status_code', undefined],
    ['$.body', undefined],
    ['data.id', '"data.id" does not start with one of $.data…, $.headers.<Name>, $.cookies.<name>, $.status_code or $.body'],
    ['$.headers.', '"$.headers." needs a name, as $.headers.<name>'],
    ['$.data.', '"$.data." ends with a dot'],
  ])('checkPath(%j)', (path, why) => {
    expect(checkPath(path)).toBe(why);
  });

  it('parsePath keeps the pieces the runtime reads with', () => {
    expect(parsePath("$.data.items[0]['name']")).toMatchObject({ root: 'data', jsonPath: "$.items[0]['name']", simple: ['items', 0, 'name'], many: false });
    expect(parsePath('$.headers.Content-Type')).toMatchObject({ root: 'headers', name: 'content-type' });
    expect(isFanOutPath('$.data[*].id')).toBe(true);
    expect(isFanOutPath('$.data[0].id')).toBe(false);
  });

  it('compiles regexes plain or as /pattern/flags (g and y dropped), and says why one is invalid', () => {
    expect(compileRegex('ord_(\\d+)')).toEqual(/ord_(\d+)/);
    expect((compileRegex('/ORD_(\\d+)/gi') as RegExp).flags).toBe('i');
    expect(compileRegex('a(b')).toMatch(/^not a valid regular expression: /);
  });

  it('compiles XPath (cached) and says why one is invalid', () => {
    const e = compileXPath('//order/id');
    expect(typeof e).toBe('object');
    expect(compileXPath('//order/id')).toBe(e);
    expect(compileXPath('//a[')).toMatch(/^not a valid XPath expression: /);
  });

  it.each<[ExtractSource, string, RegExp | undefined]>([
    ['jsonpath', '$.data.id', undefined],
    ['jsonpath', '//order/id', /does not start with one of/],
    ['regex', 'id=(\\d+)', undefined],
    ['regex', 'id=(\\d+', /not a valid regular expression/],
    ['xpath', '//order/@id', undefined],
    ['xpath', '//order[', /not a valid XPath expression/],
  ])('checkExtract %s %j', (source, path, why) => {
    const got = checkExtract({ source, path });
    if (why) expect(got).toMatch(why);
    else expect(got).toBeUndefined();
  });

  it('an unknown source is named', () => {
    expect(checkExtract({ source: 'css' as ExtractSource, path: 'a' })).toBe('unknown source "css"');
  });
});

describe('one implementation', () => {
  it('the runtime re-exports the graph functions, and the graph index exports them', () => {
    expect(runtimeAssert.parseAssert).toBe(parseAssert);
    expect(runtimeAssert.checkAssert).toBe(checkAssert);
    expect(runtimeExtract.checkExtract).toBe(checkExtract);
    expect(runtimeExtract.compileRegex).toBe(compileRegex);
    expect(response.checkPath).toBe(checkPath);
    expect(response.parsePath).toBe(parsePath);
    expect(response.isFanOutPath).toBe(isFanOutPath);
    expect(graph.parseAssert).toBe(parseAssert);
    expect(graph.checkExtract).toBe(checkExtract);
  });

  it('loading the graph stage does not load the XPath library (lint of a project without xpath pays nothing)', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const script = [
      "import { createRequire } from 'node:module';",
      "const g = await import('./src/graph/index.ts');",
      'const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]node_modules[\\\\/]xpath[\\\\/]/.test(k));',
      'const before = loaded();',
      "g.checkExtract({ source: 'xpath', path: '//a' });",
      'console.log(JSON.stringify([before, loaded()]));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(stdout.trim())).toEqual([false, true]);
  });
});
