// Body encoding and URL building, without a server (the client tests send them for real).
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { FormData } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import { buildBody, buildUrl, encodeBody, isFileRef } from '../../src/http/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterAll(() => cleanProjects());

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  return p.then(
    () => undefined,
    (e: { code?: string }) => e.code,
  );
}

describe('encodeBody', () => {
  test.each([
    [{ a: 1 }, '{"a":1}'],
    [[1, 'x'], '[1,"x"]'],
    ['text', '"text"'],
    [42, '42'],
    [null, 'null'],
    [false, 'false'],
  ])('json %j -> %s', async (value, expected) => {
    expect(await encodeBody('json', value, '/nowhere')).toEqual({ body: expected, contentType: 'application/json' });
  });

  test('json: a string with a JSON Content-Type is still JSON-encoded', async () => {
    expect((await encodeBody('json', 'x', '/nowhere', 'application/vnd.api+json')).body).toBe('"x"');
  });

  test('form: values become text; objects become JSON', async () => {
    const r = await encodeBody('form', { a: 1, b: true, c: { d: 1 }, e: 'x y' }, '/nowhere');
    expect(r).toEqual({ body: 'a=1&b=true&c=%7B%22d%22%3A1%7D&e=x+y', contentType: 'application/x-www-form-urlencoded' });
  });

  test('form: not a map -> E_BODY_FORM', async () => {
    expect(await codeOf(encodeBody('form', ['a'], '/nowhere'))).toBe('E_BODY_FORM');
  });

  test('form with a file: multipart FormData with a Blob', async () => {
    const dir = await writeProject({ 'data/a.csv': 'x,y\n1,2\n' });
    const r = await encodeBody('form', { f: '@./data/a.csv', note: 'hi' }, dir);
    expect(r.contentType).toBeUndefined();
    const form = r.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const file = form.get('f') as unknown as File;
    expect(file.name).toBe('a.csv');
    expect(file.type).toBe('text/csv');
    expect(await file.text()).toBe('x,y\n1,2\n');
    expect(form.get('note')).toBe('hi');
  });

  test.each([
    ['@../outside.txt', 'E_FILE_OUTSIDE_PROJECT'],
    ['@/etc/hostname', 'E_FILE_OUTSIDE_PROJECT'],
    ['@./missing.txt', 'E_FILE_NOT_FOUND'],
    ['@./data', 'E_FILE_NOT_FOUND'],
    ['@./link.txt', 'E_FILE_OUTSIDE_PROJECT'], // a link inside that points outside
  ])('upload %s -> %s', async (ref, code) => {
    const outer = await writeProject({ 'outside.txt': 'secret', 'proj/data/x.txt': 'x' });
    const dir = path.join(outer, 'proj');
    symlinkSync(path.join(outer, 'outside.txt'), path.join(dir, 'link.txt'));
    expect(await codeOf(encodeBody('form', { f: ref }, dir))).toBe(code);
  });

  test.each([
    ['@./a', true],
    ['@../a', true],
    ['@/a', true],
    ['@handle', false],
    ['me@example.com', false],
    ['@', false],
  ])('isFileRef(%s) = %s', (v, expected) => {
    expect(isFileRef(v)).toBe(expected);
  });
});

describe('buildBody', () => {
  test('no body: headers unchanged, no body', async () => {
    const headers = { a: '1' };
    expect(await buildBody({ headers }, '/nowhere')).toEqual({ headers });
  });

  test('a user Content-Type (any case) is kept for JSON', async () => {
    const r = await buildBody({ body: { a: 1 }, headers: { 'CONTENT-TYPE': 'application/merge-patch+json' } }, '/nowhere');
    expect(r.headers).toEqual({ 'CONTENT-TYPE': 'application/merge-patch+json' });
  });

  test('body wins over body_form', async () => {
    const r = await buildBody({ body: { a: 1 }, bodyForm: { b: 2 }, headers: {} }, '/nowhere');
    expect(r.body).toBe('{"a":1}');
  });
});

describe('buildUrl', () => {
  test.each([
    ['http://h', '/a', undefined, 'http://h/a'],
    ['http://h/', '/a', undefined, 'http://h/a'],
    ['http://h', 'a', undefined, 'http://h/a'],
    ['http://h', '/a', { x: '1' }, 'http://h/a?x=1'],
    ['http://h', '/a?y=2', { x: '1' }, 'http://h/a?y=2&x=1'],
    ['http://h', '/a', { s: 'a b/c', u: 'é' }, 'http://h/a?s=a%20b%2Fc&u=%C3%A9'],
    ['http://h', '/a', { l: [1, 2], n: null, o: { k: 1 } }, 'http://h/a?l=1&l=2&o=%7B%22k%22%3A1%7D'],
    ['http://h', '/a', { n: undefined }, 'http://h/a'],
  ])('%s + %s + %j', (base, p, query, expected) => {
    expect(buildUrl(base, p, query as Record<string, string>)).toBe(expected);
  });
});
