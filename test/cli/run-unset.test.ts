// `flow run --all` when some <SET_VIA_--var> values are not given: what can run runs; each
// operation that needs a missing value is skipped, listed with the --var it needs, and the
// exit code (1) says that not everything ran. Nothing is sent when nothing could run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { startUnsetApi, unsetProjectFiles } from '../helpers/unset-project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: TestServer;
beforeAll(async () => {
  api = await startUnsetApi();
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd });
  const code = await main(args, rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

describe('flow run with variables not given', () => {
  it('--all runs what it can, skips each blocked operation naming the --var it needs, and exits 1', async () => {
    const dir = await writeProject(unsetProjectFiles(api.url));
    const from = api.requests.length;
    const r = await flow(dir, ['run', '--all']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/item\.list/);
    expect(r.stdout).toContain('child.get  skipped: needs --var child=… (<SET_VIA_--var>, not given)');
    expect(r.stdout).toContain('child.detail  skipped: needs --var child=…, --var tenant=… (<SET_VIA_--var>, not given)');
    expect(r.stdout).toMatch(/^2 passed, 0 failed, 2 skipped/m);
    expect(r.stdout).toContain('2 operation(s) asked for skipped: they need a <SET_VIA_--var> nobody gave');
    expect(r.stdout).toContain('env.child is <SET_VIA_--var> and no value was given: pass --var child=… or set FLOW_VAR_child');
    expect(r.code).toBe(1);
    expect(api.requests.slice(from).map((q) => q.path)).toEqual(['/items', '/items/1']);
    // given, everything runs
    const all = await flow(dir, ['run', '--all', '--var', 'child=c1', '--var', 'tenant=t']);
    expect(all.stdout).toMatch(/^4 passed, 0 failed/m);
    expect(all.code).toBe(0);
  });

  it('nothing sent, exit 2, when no operation asked for can run', async () => {
    const dir = await writeProject(unsetProjectFiles(api.url));
    const from = api.requests.length;
    const r = await flow(dir, ['run', 'child.detail']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/env\.child is <SET_VIA_--var>[\s\S]*nothing was sent/);
    expect(api.requests.length).toBe(from);
  });
});
