// An operation that needs a second instance of the resource its path names: a flag that depends
// on another flag (`POST /flags/{{flag.name}}/dependencies` with `{"flag": "{{flag[-2].name}}"}`).
// A run makes one instance of each prerequisite; for `[-2]` it runs the flag's create again, with
// its own run-unique name, and both flags are the run's own. The clean-up removes them newest
// first: the child (its dependency goes with it), then the parent, which the server refuses to
// delete while a child depends on it. Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startFlagsApi, type FlagsApi } from '../helpers/flags-api.js';
import type { RunEvent } from '../../src/runner/types.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

let api: FlagsApi;

beforeEach(async () => {
  await api?.close();
  api = await startFlagsApi();
});

afterAll(async () => {
  await closeRunners();
  await api?.close();
});

const files = (dependency: string[], extra: string[] = []) => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url }),
  'resources/flag.yaml': [
    'name: flag',
    'operations:',
    '  create: { method: POST, path: /flags, body: { name: "f-{{$.uuid}}" }, expect_status: 201, extract: { name: $.data.name } }',
    '  get: { path: "/flags/{{flag.name}}" }',
    '  delete: { method: DELETE, path: "/flags/{{flag.name}}" }',
    ...extra,
  ].join('\n'),
  'resources/dependency.yaml': ['name: dependency', 'operations:', ...dependency].join('\n'),
});

const CREATE = '  create: { method: POST, path: "/flags/{{flag.name}}/dependencies", body: { flag: "{{flag[-2].name}}" } }';
const DELETE = '  delete: { method: DELETE, path: "/flags/{{flag.name}}/dependencies/{{flag[-2].name}}" }';
/** `[operation, status, error code]` of every operation that ended, prerequisites included. */
const ended = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'operation:end' ? [[e.result.operation, e.result.status, e.result.error?.code] as const] : []));
const posted = () => api.requests.filter((r) => r.method === 'POST').map((r) => `${r.path} ${r.text()}`);

describe('an indexed reference past the one instance a run makes', () => {
  it('[-2]: the create runs again, the write names the newest and the one before it; the clean-up removes both', async () => {
    const { runner, events } = await load(files([CREATE]));
    await runner.runMany(['dependency.create']);
    expect(ended(events)).toEqual([
      ['flag.create', 'passed', undefined],
      ['flag.create', 'passed', undefined],
      ['dependency.create', 'passed', undefined],
    ]);
    const [parent, child] = [...api.flags.keys()];
    expect(parent).not.toBe(child);
    expect(api.flags.get(child)).toEqual(new Set([parent]));
    expect(posted()).toEqual([`/flags {"name":"${parent}"}`, `/flags {"name":"${child}"}`, `/flags/${child}/dependencies {"flag":"${parent}"}`]);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted.map((d) => [d.resource, d.id, d.status])).toEqual([
      ['flag', child, 200],
      ['flag', parent, 200],
    ]);
    expect(api.flags.size).toBe(0);
  });

  it("a whole run: the dependency's DELETE goes before the flags'; nothing is left", async () => {
    const { runner } = await load(files([CREATE, DELETE]));
    const summary = await runner.runMany(['flag.create', 'dependency.create', 'dependency.delete', 'flag.delete']);
    expect(summary.results.every((r) => r.status === 'passed')).toBe(true);
    const deletes = api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').length);
    // the dependency (/flags/c/dependencies/p), then the newest flag
    expect(deletes).toEqual([5, 3]);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(api.flags.size).toBe(0);
  });

  it('[2]: the second instance, made when the run has one; a later reader reuses both', async () => {
    const link = '  link: { method: POST, path: "/flags/{{flag[2].name}}/dependencies", body: { flag: "{{flag[1].name}}" } }';
    const { runner, events } = await load(files([link, link.replace('link:', 'again:')]));
    await runner.runMany(['dependency.link', 'dependency.again']);
    expect(ended(events).map(([op, status]) => `${op} ${status}`)).toEqual([
      'flag.create passed',
      'flag.create passed',
      'dependency.link passed',
      'dependency.again passed',
    ]);
    expect(api.flags.size).toBe(2);
  });

  it('two readers at once (--concurrency 2): one more instance is made, not one each', async () => {
    const other = CREATE.replace('create:', 'again:');
    const { runner, events } = await load(files([CREATE, other]), { concurrency: 2 });
    await runner.runMany(['dependency.create', 'dependency.again']);
    expect(ended(events).filter(([op]) => op === 'flag.create')).toHaveLength(2);
    expect(api.flags.size).toBe(2);
    const [parent, child] = [...api.flags.keys()];
    expect(api.flags.get(child)).toEqual(new Set([parent]));
    await runner.cleanUp();
    expect(api.flags.size).toBe(0);
  });

  it("[-2] on a listed flag: it counts (nothing more is made), and a write on it is someone else's: not sent", async () => {
    api.flags.set('theirs', new Set());
    const extra = ['  list: { path: /flags, extract: { name: "$.data.flags[*].name" } }'];
    const touch = '  touch: { method: DELETE, path: "/flags/{{flag.name}}/dependencies/{{flag[-2].name}}", depends_on: [flag.list, flag.create] }';
    const { runner, events } = await load(files([touch], extra));
    await runner.runMany(['dependency.touch']);
    const got = ended(events);
    expect(got.filter(([op]) => op === 'flag.create')).toHaveLength(1);
    expect(got.at(-1)).toEqual(['dependency.touch', 'skipped', 'E_NOT_OWNED']);
    expect(api.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    await runner.cleanUp();
    expect([...api.flags.keys()]).toEqual(['theirs']);
  });

  it('a create that fails the second time: the reader is skipped, and names it', async () => {
    const { runner, events } = await load(files([CREATE]));
    let creates = 0;
    api.route('POST /flags', (req, res) => {
      creates++;
      if (creates === 1) return void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'only' }));
      res.writeHead(500).end();
    });
    const summary = await runner.runMany(['dependency.create']);
    expect(ended(events)).toEqual([
      ['flag.create', 'passed', undefined],
      ['flag.create', 'failed', 'E_STATUS_MISMATCH'],
      ['dependency.create', 'skipped', undefined],
    ]);
    expect(summary.results.at(-1)?.skippedBecause).toBe('prerequisite flag.create failed');
  });
});
