// The plugin's `explore: { rounds }` (src/vitest/explore.ts), in this process on the tasks API of
// test/helpers/tasks-api.ts: it is `flow explore --rounds`, so with the same seed the explore
// test sends exactly the requests the CLI sends, and ends after those rounds, long before its
// budget.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { buildGraph } from '../../src/graph/index.js';
import { loadProject } from '../../src/project/index.js';
import { runExploreTest } from '../../src/vitest/explore.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { startTasksApi, TASKS_PROJECT, type TasksApi } from '../helpers/tasks-api.js';

let dir: string;
const apis: TasksApi[] = [];
beforeAll(async () => {
  const { 'resources/reports.yaml': _report, ...tasksOnly } = TASKS_PROJECT;
  dir = await writeProject(tasksOnly);
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.close()));
  await cleanProjects();
});

async function api(): Promise<TasksApi> {
  const a = await startTasksApi({ fixed: true });
  apis.push(a);
  return a;
}

it('explore: { rounds: 2 } sends what flow explore --rounds 2 sends with the same seed, and ends there', async () => {
  const [plugin, cli] = [await api(), await api()];
  const project = await loadProject(dir);
  const options = { openapi: path.join(dir, 'openapi.yaml'), explore: { budget: 60, seed: 4, rounds: 2 } };
  await runExploreTest(project, buildGraph(project), options, { vars: { baseUrl: plugin.url } });
  const io = capturingIO({ cwd: dir, env: {} });
  const code = await main(['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '2', '--seed', '4', '--var', `baseUrl=${cli.url}`], io);
  expect(io.out).toMatch(/^explore: 0 finding\(s\) in 1 resource\(s\) \(task\); 80 sequences, /m);
  expect(code).toBe(0);
  expect(plugin.log.length).toBeGreaterThan(80);
  expect(plugin.log.join('\n')).toBe(cli.log.join('\n'));
}, 150_000);
