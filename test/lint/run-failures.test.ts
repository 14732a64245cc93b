// What a run would certainly fail on, reported by lint before any request: an assertion that
// does not parse (E_ASSERT_SYNTAX), an extraction that can never work (E_EXTRACT_FAILED), a
// `!secret` without a name (E_SECRET_NAME), and an inline login that sends no credential
// (W_INLINE_LOGIN). Same table form as rules.test.ts: every case is linted with every rule.
import { afterAll, describe, expect, it } from 'vitest';
import { parseAssert } from '../../src/runtime/assert/index.js';
import { extractOne } from '../../src/runtime/extract/index.js';
import { createResponse } from '../../src/http/response.js';
import type { ExtractSource } from '../../src/project/index.js';
import { cleanProjects } from '../helpers/project.js';
import { lintFiles, op, runTables, y, type CodeTable } from './helpers.js';

const TABLES: CodeTable[] = [
  {
    code: 'E_ASSERT_SYNTAX',
    breaks: [
      {
        name: 'a path outside the roots ($.id, not $.data.id)',
        files: op('path: /x', 'assert: ["$.id == \'x\'"]'),
        expect: ['resources/r.yaml:4:14'],
        message:
          /^"\$\.id" does not start with one of \$\.data…, \$\.headers\.<Name>, \$\.cookies\.<name>, \$\.status_code or \$\.body \(column 1 of "\$\.id == 'x'"\)$/,
      },
      {
        name: 'each bad item of a block list, at its own line',
        files: op('path: /x', 'assert:', '  - "$.data.ok == true"', '  - "$.data.state = \'done\'"', '  - "$.data.name == Alice"'),
        expect: ['resources/r.yaml:6:9', 'resources/r.yaml:7:9'],
        message: /use == to compare \(a single = is not an operator\) \(column 14 of/,
      },
      {
        name: 'a bad regex after matches',
        files: op('path: /x', 'assert: ["$.data.id matches \'(ord\'"]'),
        expect: ['resources/r.yaml:4:14'],
        message: /not a valid regular expression/,
      },
      {
        name: 'poll_until as a string',
        files: op('path: /x', 'poll_until: "$.data.done"'),
        expect: ['resources/r.yaml:4:17'],
        message: /expected an operator after the path/,
      },
      {
        name: 'poll_until as a list',
        files: op('path: /x', 'poll_until: ["$.data.ok == true", "status == 200"]'),
        expect: ['resources/r.yaml:4:39'],
        message: /expected a path starting with \$/,
      },
      {
        name: 'poll_until.condition',
        files: op('path: /x', 'poll_until:', '  condition: ["$.data.ok exists now"]', '  interval: 10'),
        expect: ['resources/r.yaml:5:19'],
        message: /unexpected text after the assertion/,
      },
      {
        name: 'an inline resource in flow.yaml',
        files: { 'flow.yaml': y('version: 1', 'resources:', '  r:', '    operations:', '      a: {path: /a, assert: ["$.x exists"]}') },
        expect: ['flow.yaml:5:30'],
      },
    ],
    keeps: [
      {
        name: 'every root, operator and literal',
        files: op(
          'path: /x',
          'assert:',
          '  - "$.data.id == \'x\'"',
          "  - \"$.data.items[?(@.status == 'active')].sku contains 'A1'\"",
          '  - "$.headers.Content-Type contains json"'.replace('json', "'json'"),
          '  - "$.cookies.sid exists"',
          '  - "$.status_code < 300"',
          '  - "$.body matches \'^ok\'"',
          '  - "$.data.total == {{order.total}}"',
          '  - "$.data.x not exists"',
          'poll_until: {condition: "$.data.done == true"}',
        ),
      },
      // spec 2.6: ignored by the run, so W_NOT_SEQUENCE / E_SCHEMA say it, not a parse error
      { name: 'assert that is not a sequence (W_NOT_SEQUENCE only)', files: op('path: /x', 'assert: "$.id = 1"') },
      { name: 'an item that is not a string (E_SCHEMA only)', files: op('path: /x', 'assert: [5]') },
    ],
  },
  {
    code: 'E_EXTRACT_FAILED',
    breaks: [
      {
        name: 'a path without $. and an XPath without source: xpath',
        files: op('path: /x', "extract: { e: 'data.id', x: '//order/id' }"),
        expect: ['resources/r.yaml:4:19', 'resources/r.yaml:4:33'],
        message: /^cannot extract "e" with data\.id: "data\.id" does not start with one of \$\.data…/,
      },
      {
        name: 'the explicit form, at its path',
        files: op('path: /x', 'extract:', '  id: {path: "$.id"}', '  n:', '    source: regex', '    path: "ord_(\\\\d+"'),
        expect: ['resources/r.yaml:5:18', 'resources/r.yaml:8:15'],
      },
      {
        name: 'an invalid XPath',
        files: op('path: /x', 'extract: {n: {path: "//a[", source: xpath}}'),
        expect: ['resources/r.yaml:4:25'],
        message: /not a valid XPath expression/,
      },
      { name: 'a header with no name', files: op('path: /x', 'extract: {loc: $.headers.}'), expect: ['resources/r.yaml:4:20'], message: /needs a name/ },
      {
        name: 'in logins, chain steps and session.refresh',
        files: {
          'actors/a.yaml': y(
            'auth:',
            '  strategy: simple',
            '  path: /login',
            '  extract: {token: token}',
            'session:',
            '  refresh: {path: /r, extract: {token: $.token}}',
          ),
          'actors/b.yaml': y('auth:', '  strategy: chain', '  steps:', '    - {id: one, path: /a, extract: {otp: otp_id}}'),
        },
        expect: ['actors/a.yaml:4:20', 'actors/a.yaml:6:40', 'actors/b.yaml:4:42'],
      },
      {
        name: "an operation's inline login",
        files: op('path: /x', 'auth: {strategy: simple, path: /login, extract: {t: t}}'),
        expect: ['resources/r.yaml:4:57'],
      },
    ],
    keeps: [
      {
        name: 'every form of spec 2.7, regex and xpath',
        files: op(
          'path: /x',
          'extract:',
          '  id: $.data.id',
          '  ids: $.data[*].id',
          '  loc: $.headers.Location',
          '  sid: $.cookies.sid',
          '  status: $.status_code',
          '  first: "$.data.items[0][\'name\']"',
          '  n: {path: "ord_(\\\\d+)", source: regex}',
          '  x: {path: //order/id, source: xpath}',
          '  j: {path: $.data.j, source: json}',
        ),
      },
    ],
  },
  {
    code: 'E_SECRET_NAME',
    breaks: [
      {
        name: 'a bare tag in an environment, at the key',
        files: { 'environments/e.yaml': y('variables:', '  password: !secret', '  token: !secret TOKEN') },
        expect: ['environments/e.yaml:2:3'],
        message: /^!secret has no name: write the name after the tag, as !secret NAME/,
      },
      { name: 'an empty quoted name', files: { 'environments/e.yaml': y('variables:', '  password: !secret ""') }, expect: ['environments/e.yaml:2:3'] },
      {
        name: 'in a login body and in a list',
        files: { 'actors/a.yaml': y('auth:', '  strategy: simple', '  path: /login', '  body: {password: !secret }', '  headers: {X-Keys: [a, !secret ]}') },
        expect: ['actors/a.yaml:4:10', 'actors/a.yaml:5:33'],
      },
      { name: 'in a list item', files: op('path: /x', 'body: [!secret ]'), expect: ['resources/r.yaml:4:20'] },
    ],
    keeps: [
      {
        name: 'named secrets, and the text "!secret" quoted',
        files: { 'environments/e.yaml': y('variables:', '  password: !secret PW', "  note: '!secret'", '  other: !secret  spaced ') },
      },
      { name: 'a tag on a map (W_UNKNOWN_TAG only)', files: { 'environments/e.yaml': y('variables:', '  a: !secret', '    b: 1') } },
    ],
  },
  {
    code: 'W_INLINE_LOGIN',
    breaks: [
      {
        name: 'simple, without an actor',
        files: op('path: /x', 'auth:', '  strategy: simple', '  method: POST', '  path: /login', '  extract: {token: $.data.token}'),
        expect: ['resources/r.yaml:5:17'],
        message: /^an inline simple auth logs in but adds no credential to this request; give the operation an actor whose inject\.headers carry the token$/,
      },
      {
        name: 'chain, with an actor',
        files: {
          'actors/admin.yaml': y('auth: {strategy: bearer, token: "{{secret.T}}"}'),
          ...op('path: /x', 'actor: admin', 'auth: {strategy: chain, steps: [{id: a, path: /a}]}'),
        },
        expect: ['resources/r.yaml:5:22'],
        message:
          /^an inline chain auth logs in but adds no credential to this request; move the login to actor "admin", whose inject\.headers carry the token$/,
      },
    ],
    keeps: [
      {
        name: 'strategies that add a credential',
        files: {
          'resources/r.yaml': y(
            'operations:',
            '  a: {path: /a, auth: {strategy: bearer, token: "{{secret.T}}"}}',
            '  b: {path: /b, auth: {strategy: basic, username: u, password: "{{secret.P}}"}}',
          ),
        },
      },
      {
        name: 'a login in an actor',
        files: {
          'actors/a.yaml': y(
            'auth: {strategy: simple, path: /login, extract: {token: $.data.token}}',
            'inject: {headers: {Authorization: "Bearer {{a.token}}"}}',
          ),
        },
      },
      {
        name: 'an unknown or missing strategy (W_UNKNOWN_STRATEGY only)',
        files: { 'resources/r.yaml': y('operations:', '  a: {path: /a, auth: {strategy: Simple, path: /login}}', '  b: {path: /b, auth: {path: /login}}') },
      },
    ],
  },
];

afterAll(cleanProjects);

runTables(TABLES);

describe('lint says what the run would say', () => {
  it.each(["$.id == 'x'", '$.data.id equals 1', "$.data.id == 'open", '$.data.n > true'])('assert %j: same message as the run', async (expr) => {
    const { result } = await lintFiles(op('path: /x', `assert: [${JSON.stringify(expr)}]`));
    let runtime: { code?: string; message?: string } = {};
    try {
      parseAssert(expr);
    } catch (err) {
      runtime = err as typeof runtime;
    }
    expect(runtime.code).toBe('E_ASSERT_SYNTAX');
    expect(result.diagnostics.filter((d) => d.code === 'E_ASSERT_SYNTAX').map((d) => d.message)).toEqual([runtime.message]);
  });

  it.each<[ExtractSource, string]>([
    ['jsonpath', 'data.id'],
    ['jsonpath', '//order/id'],
    ['regex', 'a(b'],
    ['xpath', '//a['],
  ])('extraction %s %j: same code and message as the run', async (source, path) => {
    const { result } = await lintFiles(op('path: /x', `extract: {v: {path: ${JSON.stringify(path)}, source: ${source}}}`));
    const res = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"id": 1}' });
    let runtime: { code?: string; message?: string } = {};
    try {
      extractOne({ name: 'v', source, path }, res);
    } catch (err) {
      runtime = err as typeof runtime;
    }
    const [d, ...more] = result.diagnostics.filter((x) => x.code === runtime.code);
    expect(more).toEqual([]);
    expect(d).toMatchObject({ code: 'E_EXTRACT_FAILED', message: runtime.message });
  });
});
