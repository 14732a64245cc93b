// `flow run --shard k/n`: the parts the Vitest plugin splits a project into, dealt to n shards.
// Four shards of a 400-operation project of 40 independent resources, and of a project whose
// resources all need one account, against a real server that records what it received.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { wideProjectYaml } from '../helpers/wide-project.js';
import { parseJUnit } from '../vitest/helpers.js';

let server: TestServer;
beforeAll(async () => {
  let n = 0;
  server = await startServer({
    'POST /things': (_req, res) => json(res, 201, { id: ++n }),
    '*': (_req, res) => json(res, 200, { ok: true }),
  });
});
afterAll(async () => {
  await server.close();
  await cleanProjects();
});

async function flowRun(dir: string, args: string[]) {
  const io = capturingIO({ cwd: dir });
  const code = await main(['run', ...args, '--var', `baseUrl=${server.url}`], io);
  return { code, stdout: io.out, stderr: io.err };
}

/** Runs the four shards; the JUnit testcases of each. */
async function shards(dir: string) {
  const out = [];
  for (const k of [1, 2, 3, 4]) {
    const file = path.join(dir, `junit-${k}.xml`);
    const run = await flowRun(dir, ['--shard', `${k}/4`, '--reporter', 'junit', '--output-file', `junit=${file}`]);
    expect(run.code, run.stderr).toBe(0);
    out.push(parseJUnit(readFileSync(file, 'utf8')).flatMap((s) => s.cases));
  }
  return out;
}

describe('flow run --shard k/4', () => {
  it('reports every operation exactly once across the shards, all green, at most 40% in one shard', async () => {
    const dir = await writeProject({ 'flow.yaml': wideProjectYaml(40, 10) });
    const before = server.requests.length;
    const cases = await shards(dir);
    const names = cases.flat().map((c) => c.name);
    expect(names).toHaveLength(400);
    expect(new Set(names).size).toBe(400);
    expect(cases.flat().filter((c) => c.failure || c.skipped)).toEqual([]);
    for (const shard of cases) expect(shard.length).toBeLessThanOrEqual(160);
    expect(new Set(cases.flat().map((c) => c.classname))).toEqual(new Set(['flow.yaml']));
    // independent parts: no request sent twice
    expect(server.requests.length - before).toBe(400);
  });

  it('a part runs the prerequisites it shares with another part; each shard reports only its own operations', async () => {
    const dir = await writeProject({ 'flow.yaml': wideProjectYaml(30, 5, { shared: true }) });
    const before = server.requests.length;
    const cases = await shards(dir);
    const names = cases.flat().map((c) => c.name);
    expect(new Set(names).size).toBe(151);
    expect(names).toHaveLength(151);
    // account.create (the one POST without a body) ran in each of the four shards: reported by one
    const accounts = server.requests.slice(before).filter((r) => r.method === 'POST' && r.body.length === 0);
    expect(accounts).toHaveLength(4);
    expect(names.filter((n) => n === 'account > account.create')).toHaveLength(1);
    expect(server.requests.length - before).toBe(151 + 3);
  });

  it('refuses a shard it cannot run, and operations named with it', async () => {
    const dir = await writeProject({ 'flow.yaml': wideProjectYaml(3, 10) });
    for (const [args, message] of [
      [['--shard', '5/4'], '--shard takes k/n with 1 <= k <= n (as 2/4); got "5/4"'],
      [['--shard', 'two'], '--shard takes k/n with 1 <= k <= n (as 2/4); got "two"'],
      // the real limit, not the syntax's: a project has at most 32 parts
      [['--shard', '1/1000000'], '--shard 1/1000000: n is at most 32, the most parts a project is split into'],
      [['--shard', '1/33'], '--shard 1/33: n is at most 32'],
      [['--shard', '1/2', 'r000.create'], '--shard runs every operation: name operations (r000.create) or give --shard, not both'],
    ] as const) {
      const run = await flowRun(dir, [...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  it('a shard with no part of the project passes and says so', async () => {
    const dir = await writeProject({ 'flow.yaml': wideProjectYaml(2, 25) });
    const runs = [];
    for (const k of [1, 2, 3]) runs.push(await flowRun(dir, ['--shard', `${k}/3`]));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs[2].stdout).toBe('shard 3/3: no operations (the project has fewer parts than shards)\n');
    expect(runs[0].stdout).toMatch(/^25 passed, 0 failed/m);
    expect(runs[1].stdout).toMatch(/^25 passed, 0 failed/m);
  });
});
