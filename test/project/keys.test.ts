// Keys the format reads are text, and a `{{…}}` is a template only when quoted: YAML reads a
// complex key (`? [a, b]`) and an unquoted `{{x}}` (a flow mapping) as something else, which
// used to lint clean and reach the plan or the request body.
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lint } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterAll(cleanProjects);

const ROOT = 'version: 1\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n';
const ENV = 'variables: { baseUrl: "http://127.0.0.1:9", pw: x, h: X-H }\n';

// The yaml library reports through process.emitWarning; none may reach the terminal.
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);
beforeEach(() => void process.on('warning', onWarning));
afterEach(() => void process.off('warning', onWarning));

async function lintOf(files: Record<string, string>) {
  const dir = await writeProject({ 'flow.yaml': ROOT, 'environments/local.yaml': ENV, ...files });
  const project = await loadProject(dir);
  const { diagnostics } = lint(project);
  await new Promise((r) => setImmediate(r));
  return { project, found: diagnostics.map((d) => ({ at: `${path.relative(dir, d.file)}:${d.line}`, code: d.code, message: d.message })) };
}

describe('keys that are not text (E_KEY_NOT_STRING)', () => {
  it.each([
    ['an operation name `? [a, b]`', 'operations:\n  ? [a, b]\n  : { path: /a }\n', 'resources/item.yaml:2', /YAML reads \[a, b\] as a sequence/],
    ['an operation name that is a flow map', 'operations:\n  {a: 1}: { path: /a }\n', 'resources/item.yaml:2', /as a mapping/],
    ['an operation named null', 'operations:\n  null: { path: /a }\n', 'resources/item.yaml:2', /null/],
    ['a header name `? [x, y]`', 'operations:\n  get:\n    path: /a\n    headers:\n      ? [x, y]\n      : v\n', 'resources/item.yaml:5', /sequence/],
    [
      'a body key from an alias of a sequence',
      'operations:\n  get:\n    method: POST\n    path: /a\n    body:\n      list: &l [a]\n      ? *l\n      : v\n',
      'resources/item.yaml:7',
      /sequence/,
    ],
  ])('%s is an error at its line, and no warning is printed', async (_, text, at, message) => {
    const { found } = await lintOf({ 'resources/item.yaml': text });
    expect(found).toEqual([{ at, code: 'E_KEY_NOT_STRING', message: expect.stringMatching(message) }]);
    expect(warnings).toEqual([]);
  });

  it('text keys of every scalar kind pass (numbers and booleans are read as their text)', async () => {
    const { found } = await lintOf({
      'resources/item.yaml':
        'operations:\n  get:\n    method: POST\n    path: /a\n    headers: { "X-Quoted": a, X-Plain: b }\n    body: { 1: a, true: b, "null": c }\n',
    });
    expect(found).toEqual([]);
  });
});

describe('unquoted templates (E_TEMPLATE_UNQUOTED)', () => {
  it.each([
    [
      'a body value',
      'operations:\n  create:\n    method: POST\n    path: /a\n    body:\n      name: {{$.faker.word}}\n',
      'resources/item.yaml:6',
      'quote it: name: "{{$.faker.word}}"',
    ],
    [
      'a list item',
      'operations:\n  create:\n    method: POST\n    path: /a\n    body:\n      tags: [ {{ $.faker.word }} ]\n',
      'resources/item.yaml:6',
      'quote it: - "{{ $.faker.word }}"',
    ],
    ['a header name', 'operations:\n  get:\n    path: /a\n    headers:\n      {{env.h}}: v\n', 'resources/item.yaml:5', 'quote it: "{{env.h}}": …'],
    ['an operation name', 'operations:\n  {{env.h}}: { path: /a }\n', 'resources/item.yaml:2', 'unquoted template as a key'],
  ])('in %s: one error that says to quote it', async (_, text, at, message) => {
    const { found } = await lintOf({ 'resources/item.yaml': text });
    expect(found).toEqual([{ at, code: 'E_TEMPLATE_UNQUOTED', message: expect.stringContaining(message) }]);
    expect(warnings).toEqual([]);
  });

  it('where the schema wants a string (password), it says "quote it" instead of only "must be a string"', async () => {
    const { found } = await lintOf({ 'actors/admin.yaml': 'auth:\n  strategy: basic\n  username: carol\n  password: {{env.pw}}\n' });
    expect(found).toEqual([{ at: 'actors/admin.yaml:4', code: 'E_TEMPLATE_UNQUOTED', message: expect.stringContaining('quote it: password: "{{env.pw}}"') }]);
  });

  it('quoted templates and braces inside text are fine', async () => {
    const { found } = await lintOf({
      'resources/item.yaml':
        'operations:\n  create:\n    method: POST\n    path: /a/{{env.h}}\n    body:\n      name: "{{$.faker.word}}"\n      json: { a: { b: 1 } }\n      empty: { {}: x }\n',
    });
    expect(found.filter((d) => d.code === 'E_TEMPLATE_UNQUOTED')).toEqual([]);
  });
});
