// One slip, one error: a file that does not parse is one E_YAML_PARSE, at the slip, listed
// first; what only follows from it elsewhere (a reference to the resource it would define) is
// counted under it, not shown; a reference that is wrong on its own is still shown.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { followOnLine } from '../../src/lint/index.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { cleanProjects } from '../helpers/project.js';
import { found, lintFiles, y } from './helpers.js';

afterAll(cleanProjects);

/** A resource `thing` whose create is referenced from orders.yaml three ways, and one real typo. */
const ORDERS = y(
  'name: order',
  'operations:',
  '  create:',
  '    method: POST',
  '    path: /things/{{thing.id}}/orders',
  '    depends_on:',
  '      - thing.create',
  '    expect_status: 201',
  '  list:',
  '    for_each: thing',
  '    path: /orders/{{nosuch.id}}',
);
const THING = (createLines: string[]) => y('name: thing', 'operations:', '  create:', ...createLines, '  get:', '    path: /things/{{thing.id}}');

const TAB = THING(['    method: POST', '\tpath: /things', '    expect_status: 201', '    extract:', '      id: $.id']);
const INDENT = THING(['    method: POST', '    path: /things', '     expect_status: 201', '    extract:', '      id: $.id']);

describe('a file that does not parse', () => {
  it.each([
    ['a tab', TAB, 'resources/things.yaml:5:1 E_YAML_PARSE'],
    ['a line indented one column too far', INDENT, 'resources/things.yaml:6:6 E_YAML_PARSE'],
  ])('%s is one E_YAML_PARSE at its line; the references to its resource are counted, a real typo shown', async (_, text, parseError) => {
    const { dir, result } = await lintFiles({ 'resources/things.yaml': text, 'resources/orders.yaml': ORDERS });
    expect(found(dir, result)).toEqual([parseError, 'resources/orders.yaml:11:11 E_REF_UNDEFINED']);
    expect(result.diagnostics[1].message).toContain('"nosuch"');
    expect(result.followOns).toEqual([{ file: path.join(dir, 'resources/things.yaml'), errors: 3, warnings: 0 }]);
    expect(followOnLine(result.followOns[0], dir)).toBe('3 more errors come from resources/things.yaml, which did not parse');
  });

  it('sorts first, before the other files and before warnings on earlier lines', async () => {
    const { dir, result } = await lintFiles({
      'flow.yaml': y('version: 1', 'colour: red', 'imports:', '  - resources/*.yaml'),
      'resources/a.yaml': y('name: a', 'operations:', '  get:', '    path: /a/{{zzz.id}}'),
      'resources/things.yaml': TAB,
    });
    expect(found(dir, result)).toEqual(['resources/things.yaml:5:1 E_YAML_PARSE', 'flow.yaml:2:1 W_UNKNOWN_KEY', 'resources/a.yaml:4:11 E_REF_UNDEFINED']);
  });

  it('an environment that does not parse: the env.X it may define are counted under it', async () => {
    const { dir, result } = await lintFiles({
      'environments/local.yaml': y('variables:', '  baseUrl: http://x', '\ttoken: abc'),
      'resources/a.yaml': y('name: a', 'operations:', '  get:', '    path: /a', '    headers:', '      X-Token: "{{env.token}}"'),
    });
    expect(found(dir, result)).toEqual(['environments/local.yaml:3:1 E_YAML_PARSE']);
    expect(result.followOns).toEqual([{ file: path.join(dir, 'environments/local.yaml'), errors: 0, warnings: 1 }]);
    expect(followOnLine(result.followOns[0], dir)).toBe('1 more warning comes from environments/local.yaml, which did not parse');
  });

  it('flow lint and flow run print the one error and the count, and send nothing', async () => {
    const { dir } = await lintFiles({ 'resources/things.yaml': TAB, 'resources/orders.yaml': ORDERS });
    const lintIO = capturingIO({ cwd: dir });
    expect(await main(['lint', '--no-cache'], lintIO)).toBe(1);
    expect(lintIO.out).toBe(
      [
        'resources/things.yaml:5:1  error  E_YAML_PARSE  YAML: Tabs are not allowed as indentation: indent with spaces',
        'resources/orders.yaml:11:11  error  E_REF_UNDEFINED  {{nosuch.id}}: "nosuch" is not an actor, a resource, env or secret',
        '3 more errors come from resources/things.yaml, which did not parse',
        '✖ 2 problems (2 errors, 0 warnings)',
        '',
      ].join('\n'),
    );
    const runIO = capturingIO({ cwd: dir });
    expect(await main(['run', '--all', '--no-cache'], runIO)).toBe(1);
    expect(runIO.err.split('\n').slice(0, 3)).toEqual([
      'resources/things.yaml:5:1  error  E_YAML_PARSE  YAML: Tabs are not allowed as indentation: indent with spaces',
      'resources/orders.yaml:11:11  error  E_REF_UNDEFINED  {{nosuch.id}}: "nosuch" is not an actor, a resource, env or secret',
      '3 more errors come from resources/things.yaml, which did not parse',
    ]);
  });
});
