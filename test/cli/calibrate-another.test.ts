// `flow calibrate` on a project as an import writes it for a flag server whose flags depend on
// other flags (test/helpers/flags-api.ts, answering as Unleash 7 does): the dependency's create
// sends the description's example as the parent (`flag: parent_flag`) and its DELETE names the
// parent by a variable nobody gave. The 403 "No active flag parent_flag exists" names the body's
// value as a missing instance of the resource the path names: calibrate tries another flag of
// the run's own, `{{flag[-2].name}}`, and the DELETE with the same value, after the create.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { startFlagsApi, type FlagsApi } from '../helpers/flags-api.js';
import { json, startServer } from '../helpers/http-server.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: FlagsApi;
beforeAll(async () => {
  api = await startFlagsApi();
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: {} });
  const code = await main([...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

const project = (parent: string) => ({
  'flow.yaml': 'version: 1\nname: flags\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n  parent: <SET_VIA_--var>\n',
  'resources/flags.yaml': [
    'name: flag',
    'operations:',
    '  create: { method: POST, path: /flags, body: { name: "f-{{$.uuid}}" }, expect_status: 201, extract: { name: $.data.name } }',
    '  get: { path: "/flags/{{flag.name}}" }',
    '  delete: { method: DELETE, path: "/flags/{{flag.name}}" }',
    '',
  ].join('\n'),
  'resources/dependencies.yaml': [
    'name: dependency',
    'operations:',
    `  create: { method: POST, path: "/flags/{{flag.name}}/dependencies", body: { flag: ${parent} }, expect_status: 200 }`,
    '  delete: { method: DELETE, path: "/flags/{{flag.name}}/dependencies/{{env.parent}}", expect_status: 200 }',
    '  list: { path: "/flags/{{flag.name}}/parents" }',
    '',
  ].join('\n'),
});

describe('flow calibrate: a body value refused as a missing instance of the resource the path names', () => {
  it('"No active flag parent_flag exists": another flag of the run\'s own, in the create and its DELETE; then the whole run passes and leaves nothing', async () => {
    const dir = await writeProject(project('parent_flag'));
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
    expect(r.stdout).toContain('add `body.flag: "{{flag[-2].name}}"`');
    expect(r.stdout).toMatch(
      /answered 403 quoting `flag` \("parent_flag"\) as a missing flag, the resource its path names with \{\{flag\.name\}\}: another flag of this run's own; then 200/,
    );
    // the DELETE's edits, proven by its own try after the create
    expect(r.stdout).toMatch(/then 200, and dependency\.delete with \{\{flag\[-2\]\.name\}\}, after dependency\.create answered 200\n/);
    expect(r.stdout).not.toContain('proven by dependency.create');
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    const written = await readFile(path.join(dir, 'resources/dependencies.yaml'), 'utf8');
    expect(written).toContain('flag: "{{flag[-2].name}}"');
    expect(written).toContain('/flags/{{flag.name}}/dependencies/{{flag[-2].name}}');
    expect(written).toContain('depends_on: [ dependency.create ]');
    expect(api.flags.size).toBe(0);
    // the project as written is settled: a second calibrate proposes nothing
    const again = await flow(dir, ['calibrate', '--writes', '--destructive']);
    expect(again.stdout).toContain('None: no answer contradicts an expectation.');
    expect(api.flags.size).toBe(0);
    const before = api.requests.length;
    const run = await flow(dir, ['run', '--all']);
    expect(run.stdout).toMatch(/^7 passed, 0 failed/m);
    const sent = api.requests.slice(before).map((q) => `${q.method} ${q.path}`);
    const [parent, child] = api.requests
      .slice(before)
      .filter((q) => q.method === 'POST' && q.path === '/flags')
      .map((q) => (q.json() as { name: string }).name);
    expect(sent).toContain(`POST /flags/${child}/dependencies`);
    expect(sent).toContain(`DELETE /flags/${child}/dependencies/${parent}`);
    expect(api.flags.size).toBe(0);
  }, 60_000);

  it('a value the answer does not say is a missing flag is not tried as one', async () => {
    // the same refusal without the resource beside the value: whose it is, no answer says
    const other = await startServer({
      '*': (req, res) => {
        if (req.method === 'POST' && req.path === '/flags') return json(res, 201, { name: (req.json() as { name: string }).name });
        if (req.method === 'DELETE') return json(res, 200, {});
        json(res, 403, { message: 'Parent parent_flag is not allowed' });
      },
    });
    try {
      const dir = await writeProject(project('parent_flag'));
      const rec = recordedIO({ cwd: dir, env: {} });
      await main(['calibrate', 'dependency.create', '--writes', '--destructive', '--var', `baseUrl=${other.url}`], rec.io);
      expect(rec.out()).not.toContain('[-2]');
      expect(other.requests.filter((q) => q.method === 'POST' && q.path === '/flags')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
