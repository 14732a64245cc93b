// fixProject (`flow lint --fix`): the safe fixes, applied in place.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixProject } from '../../src/lint/fix/index.js';
import { loadProject } from '../../src/project/index.js';
import { lint } from '../../src/lint/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterEach(cleanProjects);

describe('fixProject', () => {
  it('makes scalars sequences, moves the baseUrl path, and turns plaintext credentials into !secret', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nname: t\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
      'environments/dev.yaml': 'name: dev\nvariables:\n  baseUrl: https://h.test/api/v1 # the dev server\n  password: hunter2\n',
      'actors/admin.yaml': 'name: admin\nauth:\n  strategy: bearer\n  token: abc-real-token\n',
      'resources/orders.yaml': [
        '# orders, by hand',
        'name: order',
        'operations:',
        '  create:',
        '    method: POST',
        '    path: /orders',
        '    actor: admin',
        '    extract: { id: $.data.id }',
        '  get:',
        '    path: /orders/{{order.id}}',
        '    depends_on: order.create # must run first',
        '    assert: "$.data.id == \'1\'"',
        '',
      ].join('\n'),
    });
    const result = await fixProject(await loadProject(dir));
    expect(result.fixes.map((f) => f.code).sort()).toEqual([
      'FIX_BASEURL_PATH',
      'FIX_BASEURL_PATH',
      'FIX_BASEURL_PATH',
      'FIX_SECRET',
      'FIX_SECRET',
      'FIX_SEQUENCE',
      'FIX_SEQUENCE',
    ]);
    expect(JSON.stringify(result.fixes)).not.toMatch(/hunter2|abc-real-token/);
    const env = await readFile(path.join(dir, 'environments/dev.yaml'), 'utf8');
    expect(env).toBe('name: dev\nvariables:\n  baseUrl: https://h.test # the dev server\n  password: !secret PASSWORD\n');
    expect(await readFile(path.join(dir, 'actors/admin.yaml'), 'utf8')).toContain('token: !secret ADMIN_TOKEN');
    const orders = await readFile(path.join(dir, 'resources/orders.yaml'), 'utf8');
    // Only the fixed lines change; the comment stays with its value.
    expect(orders).toBe(
      [
        '# orders, by hand',
        'name: order',
        'operations:',
        '  create:',
        '    method: POST',
        '    path: /api/v1/orders',
        '    actor: admin',
        '    extract: { id: $.data.id }',
        '  get:',
        '    path: /api/v1/orders/{{order.id}}',
        '    depends_on:',
        '      - order.create # must run first',
        '    assert:',
        '      - "$.data.id == \'1\'"',
        '',
      ].join('\n'),
    );
    const after = lint(await loadProject(dir));
    expect(after.diagnostics.filter((d) => ['W_NOT_SEQUENCE', 'W_BASEURL_PATH', 'W_PLAINTEXT_SECRET', 'E_SCHEMA'].includes(d.code))).toEqual([]);
    // Fixing again finds nothing to do.
    expect((await fixProject(await loadProject(dir))).fixes).toEqual([]);
  });
  it('fixes every credential W_PLAINTEXT_SECRET reports in an actor auth, nested ones included', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nname: t\nimports:\n  - actors/*.yaml\n',
      'actors/admin.yaml': [
        'auth:',
        '  strategy: simple',
        '  path: /login',
        '  password: Top-Level-Pw1',
        '  body:',
        '    username: admin',
        '    password: Nested-Pw2 # the login form',
        '    client: {api_key: Nested-Key3}',
        '  extract: {token: $.data.token}',
        '',
      ].join('\n'),
      'actors/ops.yaml': 'auth:\n  strategy: chain\n  steps:\n    - id: one\n      path: /a\n      body: {secret: Step-Secret4}\n',
    });
    const before = lint(await loadProject(dir)).diagnostics.filter((d) => d.code === 'W_PLAINTEXT_SECRET');
    expect(before).toHaveLength(4);
    const result = await fixProject(await loadProject(dir));
    expect(result.fixes.map((f) => f.message)).toEqual([
      'actor admin: auth.password is now !secret ADMIN_PASSWORD: store its value with `flow secret set ADMIN_PASSWORD`',
      'actor admin: auth.body.password is now !secret ADMIN_BODY_PASSWORD: store its value with `flow secret set ADMIN_BODY_PASSWORD`',
      'actor admin: auth.body.client.api_key is now !secret ADMIN_API_KEY: store its value with `flow secret set ADMIN_API_KEY`',
      'actor ops: auth.steps[0].body.secret is now !secret OPS_SECRET: store its value with `flow secret set OPS_SECRET`',
    ]);
    expect(JSON.stringify(result.fixes)).not.toMatch(/Pw1|Pw2|Key3|Secret4/);
    const admin = await readFile(path.join(dir, 'actors/admin.yaml'), 'utf8');
    expect(admin).toContain('\n    password: !secret ADMIN_BODY_PASSWORD # the login form\n');
    expect(admin).toContain('client: { api_key: !secret ADMIN_API_KEY }');
    expect(admin).toMatch(/extract: \{ ?token: \$\.data\.token ?\}/); // a path, not a credential
    expect(await readFile(path.join(dir, 'actors/ops.yaml'), 'utf8')).toContain('body: { secret: !secret OPS_SECRET }');
    const after = lint(await loadProject(dir));
    expect(after.diagnostics.filter((d) => d.code === 'W_PLAINTEXT_SECRET')).toEqual([]);
  });

  it('leaves a baseUrl alone when environments disagree on the path', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nname: t\nimports:\n  - environments/*.yaml\n',
      'environments/a.yaml': 'name: a\nvariables:\n  baseUrl: https://a.test/v1\n',
      'environments/b.yaml': 'name: b\nvariables:\n  baseUrl: https://b.test/v2\n',
    });
    expect((await fixProject(await loadProject(dir))).fixes).toEqual([]);
  });
});
