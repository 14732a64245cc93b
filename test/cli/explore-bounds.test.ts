// `flow explore` against a tasks API whose `priority` (1 to 5) accepts 0 and 6: the edges of
// each schema are drawn before random values, so the off-by-one bound is found in a short
// budget; an operation that needs a <SET_VIA_--var> nobody gave is "not explored" and the rest
// runs; one seed covers the project's {{$.faker.*}} and {{$.uuid}} too (flow run stays unseeded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { startTasksApi, TASKS_PROJECT, type TasksApi } from '../helpers/tasks-api.js';

let dir: string;
/** the same with `report.get`, which needs env.record_id */
let withReport: string;
const apis: TasksApi[] = [];

beforeAll(async () => {
  const { 'resources/reports.yaml': report, ...tasksOnly } = TASKS_PROJECT;
  dir = await writeProject(tasksOnly);
  withReport = await writeProject({ ...tasksOnly, 'resources/reports.yaml': report });
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.close()));
  await cleanProjects();
});

async function api(fixed: boolean) {
  const a = await startTasksApi({ fixed });
  apis.push(a);
  return a;
}

async function flow(args: string[], cwd = dir) {
  const io = capturingIO({ cwd, env: {} });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

const posts = (a: TasksApi) => a.log.filter((l) => l.startsWith('POST /tasks '));

describe('flow explore: edges first, skips what cannot run, one seed', () => {
  it('finds, in a short budget, the bound the API does not check (priority 0 or 6 accepted)', async () => {
    const a = await api(false);
    const { code, out } = await flow(['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '1', '--seed', '1', '--var', `baseUrl=${a.url}`]);
    expect(out).toMatch(/^FINDING E_ACCEPTS_INVALID task\.create$/m);
    expect(out).toMatch(/"priority":(0|6)\b/);
    expect(code).toBe(1);
  }, 60_000);

  it('--rounds ends the exploration after that many rounds, each 40 sequences of every resource, long before the budget', async () => {
    const a = await api(true);
    const { code, out } = await flow(['explore', '--openapi', 'openapi.yaml', '--budget', '300', '--rounds', '2', '--seed', '1', '--var', `baseUrl=${a.url}`]);
    expect(out).toMatch(/^explore: 0 finding\(s\) in 1 resource\(s\) \(task\); 80 sequences, /m);
    expect(code).toBe(0);
  }, 60_000);

  it('the first values out of range it sends are the edges: one past the minimum, one past the maximum', async () => {
    const a = await api(true);
    await flow(['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '4', '--seed', '1', '--var', `baseUrl=${a.url}`]);
    const priorities = posts(a).map((l) => /"priority":(-?[\d.e+]+)/.exec(l)?.[1]);
    const outside = [...new Set(priorities.filter((p) => p !== undefined && !/^[1-5]$/.test(p)))];
    expect(outside.slice(0, 2), posts(a).slice(0, 20).join('\n')).toEqual(['0', '6']);
    // the valid edges come first too
    expect(priorities.slice(0, 2)).toContain('1');
  }, 90_000);

  it('an operation that needs a <SET_VIA_--var> nobody gave is not explored; the others are', async () => {
    const a = await api(true);
    const { code, out, err } = await flow(
      ['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '4', '--seed', '2', '--var', `baseUrl=${a.url}`],
      withReport,
    );
    expect(out).toContain('not explored: report.get: needs env.record_id, which is <SET_VIA_--var> and was not given');
    expect(posts(a).length).toBeGreaterThan(3);
    expect(a.log.some((l) => l.startsWith('GET /reports/'))).toBe(false);
    expect(err).toBe('');
    expect(code, out).toBe(0);
  }, 90_000);

  it('exits 2 only when nothing at all can run, naming what is missing', async () => {
    const { code, out, err } = await flow(['explore', '--openapi', 'openapi.yaml', '--budget', '2', '--seed', '2'], withReport);
    expect(err).toContain('env.baseUrl is <SET_VIA_--var> and no value was given');
    expect(err).toContain('no operation can be explored: nothing was sent');
    expect(out).toContain('not explored: task.create: needs env.baseUrl');
    expect(code).toBe(2);
  });

  it('the same seed sends the same requests, {{$.faker.*}} and {{$.uuid}} included; another seed does not; flow run stays unseeded', async () => {
    const run = async (seed: string) => {
      const a = await api(true);
      await flow(['explore', '--openapi', 'openapi.yaml', '--budget', '30', '--rounds', '6', '--seed', seed, '--var', `baseUrl=${a.url}`]);
      return a.log;
    };
    const [a, b, c] = [await run('9'), await run('9'), await run('10')];
    // the same rounds: the whole runs, clean-ups included, are the same
    expect(a.join('\n')).toBe(b.join('\n'));
    const n = Math.min(a.length, 40) - 3;
    expect(n).toBeGreaterThan(10);
    // the project's own create (a prerequisite, as written) renders a uuid: drawn from the seed
    expect(a.slice(0, n).some((l) => /"ref":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/.test(l))).toBe(true);
    expect(c.slice(0, n)).not.toEqual(a.slice(0, n));

    const plain = await api(true);
    for (let i = 0; i < 2; i++) await flow(['run', 'task.create', '--var', `baseUrl=${plain.url}`]);
    const refs = posts(plain).map((l) => /"ref":"([^"]+)"/.exec(l)?.[1]);
    expect(refs).toHaveLength(2);
    expect(refs[0]).not.toBe(refs[1]);
  }, 150_000);
});
