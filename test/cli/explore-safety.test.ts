// What `flow explore` may send, and what it leaves: the same seed sends the same requests,
// only what the run created is deleted, a bulk operation only with --destructive, and usage
// errors exit 2. Against the fixed items API, bounded by rounds: the same draws on a busy
// machine as on a quiet one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { EXPLORE_PROJECT, EXPLORE_TOKEN, startExploreApi, type ExploreApi } from '../helpers/explore-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const env = { FLOW_SECRET_API_TOKEN: EXPLORE_TOKEN };
const PURGE = '  purge:\n    method: DELETE\n    path: /items\n    actor: user\n    expect_status: 204\n';
let dir: string;
const apis: ExploreApi[] = [];

beforeAll(async () => {
  dir = await writeProject({ ...EXPLORE_PROJECT, 'resources/items.yaml': EXPLORE_PROJECT['resources/items.yaml'] + PURGE });
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.close()));
  await cleanProjects();
});

async function explore(args: string[], api?: ExploreApi) {
  const io = capturingIO({ cwd: dir, env });
  const code = await main(['explore', ...args, ...(api ? ['--var', `baseUrl=${api.url}`] : [])], io);
  return { code, out: io.out, err: io.err };
}

/** what 2 s explored on a quiet machine (20 to 23 rounds) */
const DELETES = ['--budget', '30', '--rounds', '4', '--seed', '5'];

async function fixedApi() {
  const api = await startExploreApi({ fixed: true });
  apis.push(api);
  return api;
}

describe('flow explore: safety and reproducibility', () => {
  it('the same seed sends the same requests', async () => {
    const [a, b] = [await fixedApi(), await fixedApi()];
    await explore(['--openapi', 'openapi.yaml', '--budget', '30', '--rounds', '3', '--seed', '123'], a);
    await explore(['--openapi', 'openapi.yaml', '--budget', '30', '--rounds', '3', '--seed', '123'], b);
    // the same rounds: the whole runs, clean-ups included
    expect(a.log.length).toBeGreaterThan(10);
    expect(a.log.join('\n')).toBe(b.log.join('\n'));
    const c = await fixedApi();
    await explore(['--openapi', 'openapi.yaml', '--budget', '30', '--rounds', '4', '--seed', '124'], c);
    expect(c.log.slice(0, 10)).not.toEqual(a.log.slice(0, 10));
  }, 120_000);

  it('deletes only what it created, and sends a bulk operation only with --destructive', async () => {
    const api = await fixedApi();
    api.items.set('theirs', { id: 'theirs', title: 'not ours', price: 1 });
    const { code, out } = await explore(['--openapi', 'openapi.yaml', ...DELETES], api);
    expect(code, out).toBe(0);
    expect(out).toContain('not explored: item.purge: DELETE on a collection path: a bulk change, only with --destructive');
    expect(api.count.get('DELETE /items')).toBeUndefined();
    expect(api.count.get('POST /items')).toBeGreaterThan(5);
    // every item the run created was deleted; the one it did not create is still there
    expect([...api.items.keys()]).toEqual(['theirs']);

    // --destructive alone does not send it: a collection's DELETE names no instance (a switch), sent only when named
    const unnamed = await fixedApi();
    const plain = await explore(['--openapi', 'openapi.yaml', ...DELETES, '--destructive'], unnamed);
    expect(plain.out).toContain('not explored: item.purge: a switch');
    expect(unnamed.count.get('DELETE /items')).toBeUndefined();
    const destructive = await fixedApi();
    await explore(['--openapi', 'openapi.yaml', ...DELETES, '--destructive', '--only', 'item.*'], destructive);
    expect(destructive.count.get('DELETE /items')).toBeGreaterThan(0);
  }, 120_000);

  it('an API that never answers is not a pass: exit 1, and why', async () => {
    const { code, out, err } = await explore(['--openapi', 'openapi.yaml', '--budget', '1', '--seed', '1', '--var', 'baseUrl=http://127.0.0.1:9']);
    expect(out).toMatch(/explore: 0 finding\(s\)/);
    expect(err).toContain('no step got an answer (a login or a prerequisite failed?)');
    expect(code).toBe(1);
  });

  it.each([
    [['--openapi', 'openapi.yaml', '--budget', '0'], '--budget is a number of seconds'],
    [['--openapi', 'openapi.yaml', '--seed', 'x'], '--seed is a whole number'],
    [['--openapi', 'openapi.yaml', '--rounds', '0'], '--rounds is a whole number above 0'],
    [['--openapi', 'openapi.yaml', '--rounds', '1.5'], '--rounds is a whole number above 0'],
    [['--openapi', 'missing.yaml', '--budget', '1', '--var', 'baseUrl=http://127.0.0.1:9'], '--openapi: E_CONTRACT_LOAD'],
    [['--openapi', 'openapi.yaml', '--nope'], "Unknown option '--nope'"],
  ])('usage error %j: exit 2, nothing sent', async (args, message) => {
    const { code, err } = await explore(args);
    expect(err).toContain(message);
    expect(code).toBe(2);
  });

  it('without --openapi, the description the project keeps is read; with none kept, it is a usage error', async () => {
    const api = await fixedApi();
    const { code, out } = await explore(['--budget', '1', '--seed', '1'], api);
    expect(out).toContain('flow explore: reading openapi.yaml, the description the project keeps (flow import kept it');
    expect(code).toBe(0);
    expect(api.count.get('POST /items')).toBeGreaterThan(0);
    const { 'openapi.yaml': _, ...noDescription } = EXPLORE_PROJECT;
    const io = capturingIO({ cwd: await writeProject(noDescription), env });
    expect(await main(['explore', '--budget', '1', '--var', `baseUrl=${api.url}`], io)).toBe(2);
    expect(io.err).toContain('--openapi <file> is required (the project keeps no openapi.json from flow import)');
  });
});
