// `flow run` through main() with a captured io (output lines, summary, exit codes, options),
// checked against what the shop API received; and once as a real child process of bin/flow.js.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { freshShopApi } from '../helpers/shop-api.js';
import { SHOP_FILES, SHOP_SECRET, shopProject } from '../helpers/shop-project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const api = freshShopApi();

afterAll(async () => {
  await cleanProjects();
});

/** `flow run …` in a fresh shop project (or `dir`); the base URL is given with --var unless `noVar`. */
async function flowRun(args: string[], options: { dir?: string; noVar?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const dir = options.dir ?? (await shopProject());
  const rec = recordedIO({ cwd: dir, env: { FLOW_SECRET_SHOP_PW: SHOP_SECRET, ...options.env } });
  const code = await main(['run', ...args, ...(options.noVar ? [] : ['--var', `baseUrl=${api().url}`])], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err(), dir };
}

const MS = '\\d+ ms';
const line = (text: string) => new RegExp(`^${text}$`, 'm');

/** The requests of `flow run order.get` on the shop: its chain, then the clean-up's DELETE of the order and its read-back (404). */
const ORDER_GET_LOG = ['POST /login', 'POST /products', 'POST /products/1/publish', 'POST /orders', 'GET /orders/2', 'DELETE /orders/2', 'GET /orders/2'];

describe('flow run (in process)', () => {
  it('prints each request (method, URL, status, ms, what it served), each result, then the summary; exit 0', async () => {
    const r = await flowRun(['order.get']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const u = api().url.replace(/\./g, '\\.');
    const lines = r.stdout.split('\n');
    const expected = [
      `  POST   ${u}/login  200  ${MS}  product\\.create: login \\(actor admin\\) \\(prerequisite of product\\.publish\\)`,
      `  POST   ${u}/products  201  ${MS}  product\\.create \\(prerequisite of product\\.publish\\)`,
      `✔ product\\.create \\(prerequisite of product\\.publish\\)  ${MS}`,
      `  POST   ${u}/products/1/publish  200  ${MS}  product\\.publish \\(prerequisite of order\\.create\\)`,
      `✔ product\\.publish \\(prerequisite of order\\.create\\)  ${MS}`,
      `  POST   ${u}/orders  201  ${MS}  order\\.create \\(prerequisite of order\\.get\\)`,
      `✔ order\\.create \\(prerequisite of order\\.get\\)  ${MS}`,
      `  GET    ${u}/orders/2  200  ${MS}  order\\.get`,
      `✔ order\\.get  ${MS}`,
      '',
      // every operation that ran is counted, prerequisites included
      `4 passed, 0 failed \\(${MS}\\)`,
      // what the run created, newest first, deleted with the project's own delete; products have none
      'flow run: clean-up of what this run created: 1 deleted, 1 left',
      '  deleted order 2 \\(order\\.delete 20\\d\\)',
      '  left product 1: product has no DELETE operation on one instance',
      '',
    ];
    expect(lines).toHaveLength(expected.length);
    lines.forEach((l, i) => expect(l).toMatch(line(expected[i])));
    // the last GET is the clean-up's: the order the run deleted is read back, gone (404)
    expect(api().log).toEqual(ORDER_GET_LOG);
  });

  it('exit 1 when an operation fails: the coded error with file:line, and its dependents skipped', async () => {
    const dir = await shopProject({
      'resources/products.yaml':
        'name: product\noperations:\n  create: { method: POST, path: /nope, actor: admin, expect_status: 201, extract: { id: $.data.id } }\n  publish: { method: POST, path: "/products/{{product.id}}/publish", actor: admin }\n',
    });
    const r = await flowRun(['order.get', 'order.list'], { dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(line('✖ product\\.create \\(prerequisite of product\\.publish\\)'));
    expect(r.stdout).toMatch(line('    resources/products\\.yaml:3:54  E_STATUS_MISMATCH  expected 201, got 404: \\{"error":"no route POST /nope"\\}'));
    expect(r.stdout).toMatch(line('- order\\.get  skipped: prerequisite product\\.create failed'));
    expect(r.stdout).toMatch(line(`✔ order\\.list  ${MS}`));
    // the failed prerequisite counts as a failure, its three dependents as skips
    expect(r.stdout).toMatch(line(`1 passed, 1 failed, 3 skipped \\(${MS}\\)`));
    // the failures again at the end, where a long run's reader looks
    expect(r.stdout).toMatch(/\nFailed:\n {2}✖ product\.create {2}E_STATUS_MISMATCH {2}resources\/products\.yaml:3:54\n1 passed/);
    expect(api().count('POST /orders')).toBe(0);
  });

  it('a failed login points at the actor file and its auth line; a failed assert at that assert', async () => {
    const login = await flowRun(['order.list'], { env: { FLOW_SECRET_SHOP_PW: 'not-the-password' } });
    expect(login.code).toBe(1);
    // actors/admin.yaml line 3 is `auth:`; the operation's file says nothing about the login
    expect(login.stdout).toMatch(/^ {4}actors\/admin\.yaml:3:1 {2}E_AUTH {2}login of actor admin failed/m);
    expect(login.stdout).not.toContain('resources/orders.yaml');

    const orders = SHOP_FILES['resources/orders.yaml'].replace('      - $.data.qty == 2', '      - $.data.qty == 2\n      - $.data.qty == 3');
    const dir = await shopProject({ 'resources/orders.yaml': orders });
    const assert = await flowRun(['order.get'], { dir });
    expect(assert.code).toBe(1);
    // the second assert of order.get, on its own line (19), not the operation (line 15)
    expect(orders.split('\n')[18]).toBe('      - $.data.qty == 3');
    expect(assert.stdout).toMatch(/^ {4}resources\/orders\.yaml:19:9 {2}E_ASSERT_FAILED {2}\$\.data\.qty == 3 failed/m);
  });

  it.each([
    [['order.gte'], /^flow run: unknown operation "order\.gte" \(did you mean order\.get\?\)/],
    [['--env', 'prod', 'order.get'], /^flow run: environment "prod" is not defined \(defined: local\)/],
    [['--var', 'novalue', 'order.get'], /^flow run: --var takes name=value; got "novalue"/],
    [['--concurrency', '0', 'order.get'], /^flow run: --concurrency must be a whole number from 1; got "0"/],
    [[], /^flow run: name at least one operation/],
    [['order.get', '--bogus'], /^flow run: Unknown option '--bogus'/],
    [['order.get', '--dryrun'], /^flow run: Unknown option '--dryrun' \(did you mean --dry-run\?\)/],
    [['order.get', '--all'], /^flow run: --all runs every operation: name operations \(order\.get\) or give --all, not both/],
    [['order.get', '-p', 'no/such/dir'], /^flow run: no project at no\/such\/dir/],
    [['order.get', '-p', 'resources'], /^flow run: no flow\.yaml in resources\n/],
    [['order.get', '-p', 'resources/products.yaml'], /^flow run: no project at resources\/products\.yaml \(.* is not a directory\)/],
  ])('exit 2 on a usage error, and nothing is sent: %j', async (args, message) => {
    const r = await flowRun(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(api().requests).toEqual([]);
  });

  it('an unknown operation points back at the import pattern that matched no file', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nname: x\nimports:\n  - environments/*.yaml\n  - resource/*.yaml\n',
      'resources/items.yaml': 'name: item\noperations:\n  get: { path: /items }\n',
    });
    const r = await flowRun(['item.get'], { dir });
    expect(r.code).toBe(2);
    // environments/ is absent too: a directory of the layout, which the message names as well
    expect(r.stderr).toContain(
      'flow run: unknown operation "item.get"; operations are named resource.operation\n  import "environments/*.yaml" (flow.yaml:4:5) matches no file\n  import "resource/*.yaml" (flow.yaml:5:5) matches no file\n',
    );
  });

  it('lint errors: exit 1, the errors with file:line, and nothing is sent', async () => {
    const dir = await shopProject({ 'resources/extra.yaml': 'name: extra\noperations:\n  bad: { path: "/x/{{nobody.id}}", actor: admin }\n' });
    const r = await flowRun(['order.get'], { dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^resources\/extra\.yaml:3:\d+  error  E_REF_UNDEFINED  /m);
    expect(r.stderr).toMatch(/flow run: the project has 1 lint error\(s\); nothing was sent/);
    expect(r.stdout).toBe('');
    expect(api().requests).toEqual([]);
  });

  it('--dry-run prints the plan in order with why each operation runs, and sends nothing', async () => {
    const r = await flowRun(['--dry-run', 'order.get', 'order.delete']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'Plan (nothing is sent):',
      expect.stringMatching(/^ {4}1\. product\.create +POST +\/products as admin  \(prerequisite of order\.create, product\.publish\)$/),
      expect.stringMatching(/^ {4}2\. product\.publish +POST +\/products\/\{\{product\.id\}\}\/publish as admin  \(prerequisite of order\.create\)$/),
      expect.stringMatching(/^ {4}3\. order\.create +POST +\/orders as admin  \(prerequisite of order\.get, order\.delete\)$/),
      expect.stringMatching(/^ {4}4\. order\.get +GET +\/orders\/\{\{order\.id\}\} as admin  \(asked for\)$/),
      expect.stringMatching(/^ {4}5\. order\.delete +DELETE \/orders\/\{\{order\.id\}\} as admin  \(asked for\)$/),
      '',
    ]);
    expect(api().requests).toEqual([]);
  });

  it('--all runs every operation in schedule order (DELETE last), each once; the base URL may come from FLOW_VAR_', async () => {
    const r = await flowRun(['--all'], { noVar: true, env: { FLOW_VAR_baseUrl: api().url } });
    expect(r.code).toBe(0);
    const done = [...r.stdout.matchAll(/^✔ (\S+)/gm)].map((m) => m[1]);
    expect(done).toEqual(['order.list', 'product.create', 'product.publish', 'order.create', 'order.get', 'order.delete']);
    expect(r.stdout).toMatch(line(`6 passed, 0 failed \\(${MS}\\)`));
    expect(api().log).toEqual([
      'POST /login',
      'GET /orders',
      'POST /products',
      'POST /products/1/publish',
      'POST /orders',
      'GET /orders/2',
      'DELETE /orders/2',
      'GET /orders/2', // the clean-up reads back what the run deleted: gone
    ]);
  });

  it('--var gives a <SET_VIA_--var> value; without it one usage error names the variable (and a mistyped --var), and nothing is sent', async () => {
    const without = await flowRun(['--all'], { noVar: true });
    expect(without.code).toBe(2);
    expect(without.stdout).toBe('');
    expect(without.stderr).toMatch(
      /^flow run: env\.baseUrl is <SET_VIA_--var> and no value was given: pass --var baseUrl=… or set FLOW_VAR_baseUrl\nnothing was sent\n/,
    );
    const typo = await flowRun(['order.list', '--var', 'baseurl=http://x'], { noVar: true });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(--var baseurl was given: did you mean baseUrl?)');
    const plan = await flowRun(['order.list', '--dry-run'], { noVar: true });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/Before it can run:\n {2}env\.baseUrl is <SET_VIA_--var>/);
    expect(api().requests).toEqual([]);
    const given = await flowRun(['order.list']);
    expect(given.code).toBe(0);
    expect(api().log).toEqual(['POST /login', 'GET /orders']);
  });

  it('--concurrency 4 runs independent operations at once, the login once', async () => {
    const dir = await shopProject({
      'resources/checks.yaml': 'name: check\noperations:\n' + [1, 2, 3, 4].map((i) => `  c${i}: { path: /whoami, actor: admin }\n`).join(''),
    });
    api().slow.set('/whoami', 100);
    const r = await flowRun(['check.c1', 'check.c2', 'check.c3', 'check.c4', '--concurrency', '4'], { dir });
    expect(r.code).toBe(0);
    expect(api().maxInFlight).toBeGreaterThanOrEqual(3);
    expect(api().count('POST /login')).toBe(1);
    expect(r.stdout).toMatch(line(`4 passed, 0 failed \\(${MS}\\)`));
  });

  it('with several environments and none chosen, it says which one it uses', async () => {
    const dir = await shopProject({
      'flow.yaml': 'version: 1\nname: shop-test\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
      'environments/prod.yaml': 'name: prod\nvariables:\n  baseUrl: <SET_VIA_--var>\n  password: !secret SHOP_PW\n',
    });
    const r = await flowRun(['order.list'], { dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^flow run: environment "\w+", the first of 2 declared \(choose one with --env, or default_environment in flow\.yaml\)\n$/);
    expect((await flowRun(['order.list', '--env', 'prod'], { dir })).stderr).toBe('');
  });

  it('a force: true prerequisite runs before each operation that needs it: the plan says so and the summary counts each run', async () => {
    const dir = await shopProject({
      'resources/tokens.yaml': [
        'name: tok',
        'operations:',
        '  make: { method: POST, path: /login, body: { user: admin, password: "{{env.password}}" }, force: true }',
        '  use1: { path: /whoami, actor: admin, depends_on: [tok.make] }',
        '  use2: { path: /whoami, actor: admin, depends_on: [tok.make] }',
        '',
      ].join('\n'),
    });
    const plan = await flowRun(['tok.use1', 'tok.use2', '--dry-run'], { dir });
    expect(plan.stdout).toMatch(/tok\.make .*\(prerequisite of tok\.use1, tok\.use2; force: runs again before each of them\)/);
    const r = await flowRun(['tok.use1', 'tok.use2'], { dir });
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^✔ tok\.make/gm)).toHaveLength(2);
    expect(r.stdout).toMatch(line(`4 passed, 0 failed \\(${MS}\\)`)); // tok.make twice
  });

  it('--verbose shows what hooks printed, under their operation and redacted; without it, nothing', async () => {
    const dir = await shopProject({
      'resources/notes.yaml': [
        'name: note',
        'operations:',
        '  list:',
        '    path: /products',
        '    actor: admin',
        '    expect_status: 404', // the shop has no list; the hook is what matters
        '    pre_request: "console.log(\'sending\', ctx.request.headers.Authorization)"',
        '',
      ].join('\n'),
    });
    const quiet = await flowRun(['note.list'], { dir });
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toContain('hook:');
    const loud = await flowRun(['note.list', '--verbose'], { dir });
    expect(loud.code).toBe(0);
    expect(loud.stdout).toMatch(new RegExp(`^✔ note\\.list  ${MS}\\n {4}pre_request hook: sending Bearer \\*\\*\\*$`, 'm'));
  });

  it('--record sets verified_against: live_capture on the operations that passed, keeping comments and order', async () => {
    const ordersYaml = [
      '# orders need a published product',
      'name: order',
      'operations:',
      '  create: # makes one',
      '    method: POST',
      '    path: /orders',
      '    actor: admin',
      '    depends_on: [product.publish]',
      '    body: { product: "{{product.id}}", qty: 2 }',
      '    expect_status: 201',
      '    extract: { id: $.data.id }',
      '    _provenance: { source: ai_import, verified_against: synthetic }',
      '  broken:',
      '    path: /orders/none',
      '    actor: admin',
      '',
    ].join('\n');
    const dir = await shopProject({ 'resources/orders.yaml': ordersYaml });
    const r = await flowRun(['order.create', 'order.broken', '--record'], { dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(line('recorded verified_against: live_capture on 3 operation\\(s\\) in 2 file\\(s\\)'));
    const orders = await readFile(path.join(dir, 'resources/orders.yaml'), 'utf8');
    // only the changed line differs: the comment after `create:` stays where it was
    expect(orders).toBe(
      ordersYaml.replace(
        '_provenance: { source: ai_import, verified_against: synthetic }',
        '_provenance: { source: ai_import, verified_against: live_capture }',
      ),
    );
    const products = await readFile(path.join(dir, 'resources/products.yaml'), 'utf8');
    expect(products.match(/verified_against: live_capture/g)).toHaveLength(2);
  });

  it('--help lists every option and the exit codes', async () => {
    const rec = recordedIO({ cwd: REPO });
    expect(await main(['run', '--help'], rec.io)).toBe(0);
    for (const option of ['--project', '--env', '--var', '--all', '--concurrency', '--dry-run', '--record', '--verbose', 'Exit codes']) {
      expect(rec.out()).toContain(option);
    }
    expect(api().requests).toEqual([]);
  });
});

// The real binary: needs dist/ (`npm run build`, which `npm ci` runs through `prepare`).
const BUILT = existsSync(path.join(REPO, 'dist/cli/commands/run.js'));

// Under CI a missing build is a failure, not a skip: the build is part of `npm ci`.
describeWhenAvailable('node bin/flow.js run (child process)', BUILT ? undefined : NOT_BUILT, () => {
  it('runs an operation with its prerequisites against the server; exit 0, and exit 2 on a usage error', async () => {
    const dir = await shopProject();
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const env = { PATH: process.env.PATH, FLOW_SECRET_SHOP_PW: SHOP_SECRET };
        execFile(process.execPath, [path.join(REPO, 'bin/flow.js'), 'run', ...args], { cwd: dir, env, timeout: 20_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: unknown }).code ?? 70) : 0, stdout, stderr });
        });
      });
    const [ok, usage] = await Promise.all([run(['order.get', '--var', `baseUrl=${api().url}`]), run(['order.gte'])]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(line(`  GET    ${api().url.replace(/\./g, '\\.')}/orders/2  200  ${MS}  order\\.get`));
    expect(ok.stdout).toMatch(line(`4 passed, 0 failed \\(${MS}\\)`));
    // what it created is cleaned up after the run: the order (products have no delete)
    // the last GET is the clean-up's: the order the run deleted is read back, gone (404)
    expect(api().log).toEqual(ORDER_GET_LOG);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/did you mean order\.get\?/);
  });

  it('prints every line of a long run: nothing is lost in the batched output', async () => {
    const ops = Array.from({ length: 60 }, (_, i) => `  c${i}: { path: /whoami, actor: admin }\n`).join('');
    const dir = await shopProject({ 'resources/checks.yaml': `name: check\noperations:\n${ops}` });
    const ids = Array.from({ length: 60 }, (_, i) => `check.c${i}`);
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { PATH: process.env.PATH, FLOW_SECRET_SHOP_PW: SHOP_SECRET };
      execFile(
        process.execPath,
        [path.join(REPO, 'bin/flow.js'), 'run', ...ids, '--var', `baseUrl=${api().url}`, '--verbose'],
        { cwd: dir, env, timeout: 20_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: unknown }).code ?? 70) : 0, stdout, stderr });
        },
      );
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const id of ids) expect(r.stdout).toMatch(line(`✔ ${id.replace('.', '\\.')}  ${MS}`));
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^60 passed, 0 failed \\(${MS}\\)$`));
  });
});
