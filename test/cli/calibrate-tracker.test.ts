// `flow calibrate` on a hand-written project for an issue tracker that answers as Redmine 5 does
// (test/helpers/tracker-api.ts): what its 422 sentences name, read as the server means them.
// "Activity cannot be blank" names the reference `activity_id` (a framework words a field by its
// name less `_id`): with a resource `activity` in the project, the id it lists; "Identifier is
// invalid" names a field the body sends: its value is refused, not missing; "Identifier has
// already been taken" is a 422 where other servers answer 409: the literal made run-unique.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { ACTIVITIES, ADMIN_KEY, startTrackerApi, type TrackerApi } from '../helpers/tracker-api.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: TrackerApi;
beforeAll(async () => {
  api = await startTrackerApi();
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: { FLOW_SECRET_TRACKER_KEY: ADMIN_KEY } });
  const code = await main([...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

const project = (identifier: string, entryBody: string) => ({
  'flow.yaml': 'version: 1\nname: tracker\nimports: [environments/*.yaml, actors/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'actors/admin.yaml': 'name: admin\nauth: { strategy: api_key, location: header, name: X-Tracker-Key, key: "{{secret.TRACKER_KEY}}" }\n',
  'resources/projects.yaml': [
    'name: project',
    'operations:',
    `  create: { method: POST, path: /projects.json, actor: admin, body: { project: { name: P, identifier: "${identifier}" } }, expect_status: 201, extract: { id: $.data.project.id } }`,
    '  delete: { method: DELETE, path: "/projects/{{project.id}}.json", actor: admin, expect_status: 204 }',
    '',
  ].join('\n'),
  'resources/issues.yaml': [
    'name: issue',
    'operations:',
    '  create: { method: POST, path: /issues.json, actor: admin, body: { issue: { project_id: "{{project.id}}", subject: s } }, expect_status: 201, extract: { id: $.data.issue.id } }',
    '  delete: { method: DELETE, path: "/issues/{{issue.id}}.json", actor: admin, expect_status: 204 }',
    '',
  ].join('\n'),
  'resources/activities.yaml':
    'name: activity\noperations:\n  list: { path: /enumerations/time_entry_activities.json, actor: admin, extract: { id: "$.data.time_entry_activities[*].id" } }\n',
  'resources/time_entries.yaml': [
    'name: time_entry',
    'operations:',
    `  create: { method: POST, path: /time_entries.json, actor: admin, body: { time_entry: ${entryBody} }, expect_status: 201, extract: { id: $.data.time_entry.id } }`,
    '  get: { path: "/time_entries/{{time_entry.id}}.json", actor: admin }',
    '  delete: { method: DELETE, path: "/time_entries/{{time_entry.id}}.json", actor: admin, expect_status: 204 }',
    '',
  ].join('\n'),
});

describe('flow calibrate: the sentences of a 422, as the server means them', () => {
  it('"Activity cannot be blank": the reference activity_id, linked to the activities the project lists; then the run passes', async () => {
    const dir = await writeProject(project('p-{{$.uuid}}', '{ issue_id: "{{issue.id}}", hours: 1.5 }'));
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
    expect(r.stdout).toContain('add `body.time_entry.activity_id: "{{activity.id}}"`');
    expect(r.stdout).toMatch(/answered 422 naming `time_entry\.activity`, which names the resource `activity`: its id as `time_entry\.activity_id`; then 201/);
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    expect(await readFile(path.join(dir, 'resources/time_entries.yaml'), 'utf8')).toContain('activity_id: "{{activity.id}}"');
    const run = await flow(dir, ['run', '--all']);
    expect(run.stdout).toMatch(/^8 passed, 0 failed/m);
    // the run sent an activity the server lists, and its clean-up left nothing
    const sent = api.requests
      .filter((q) => q.method === 'POST' && q.path === '/time_entries.json')
      .at(-1)!
      .json() as { time_entry: { activity_id: unknown } };
    expect(ACTIVITIES.map((a) => a.id)).toContain(sent.time_entry.activity_id);
    expect(api.entries.size + api.issues.size + api.projects.size).toBe(0);
  }, 60_000);

  it('"Identifier is invalid" on a value the body sends: the value is refused, not missing; nothing is tried in its place', async () => {
    const dir = await writeProject(project('Not Valid {{$.uuid}}', '{ issue_id: "{{issue.id}}", hours: 1.5, activity_id: 8 }'));
    const before = api.requests.length;
    const r = await flow(dir, ['calibrate', 'project.create', '--writes']);
    expect(r.stdout).toMatch(
      /\*\*project\.create\*\*: the server answered 422 naming field\(s\) `project\.identifier`, which the body sends: the value is refused, not missing: change it in `body`/,
    );
    expect(r.stdout).not.toContain('give them a value');
    expect(api.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual(['POST /projects.json']);
    expect(r.code).toBe(1);
  });

  it('"Identifier has already been taken" (a 422, not a 409) on a literal: tried run-unique, proposed; a literal that is invalid stays a question', async () => {
    api.projects.set(99, { id: 99, name: 'Team board', identifier: 'team-board' });
    try {
      const dir = await writeProject(project('team-board', '{ issue_id: "{{issue.id}}", hours: 1.5, activity_id: 8 }'));
      const r = await flow(dir, ['calibrate', 'project.create', '--writes', '--destructive', '--apply']);
      expect(r.stdout).toMatch(/answered 422 naming `project\.identifier`, which the body sends as a literal \(a value that is taken\?\); then 201/);
      expect(r.stdout).toContain('add `body.project.identifier: "team-board-{{$.uuid}}"`');
      expect(r.code).toBe(0);
      expect((await flow(dir, ['run', '--all'])).stdout).toMatch(/^8 passed, 0 failed/m);
      const invalid = await writeProject(project('Team Board', '{ issue_id: "{{issue.id}}", hours: 1.5, activity_id: 8 }'));
      const q = await flow(invalid, ['calibrate', 'project.create', '--writes']);
      expect(q.stdout).toMatch(
        /the value is refused, not missing: change it in `body` \(tried: answered 422 naming `project\.identifier`, which the body sends as a literal \(a value that is taken\?\); last answer 422\)/,
      );
      expect(q.code).toBe(1);
    } finally {
      api.projects.delete(99);
    }
    expect(api.projects.size + api.issues.size + api.entries.size).toBe(0);
  }, 60_000);

  it('an id from another server inside the body\'s wrapper (`activity_id: 7`, "Activity cannot be blank"): linked to the activities the project lists', async () => {
    const dir = await writeProject(project('p-{{$.uuid}}', '{ issue_id: "{{issue.id}}", hours: 1.5, activity_id: 7 }'));
    const r = await flow(dir, ['calibrate', 'time_entry.create', '--writes', '--destructive']);
    expect(r.stdout).toContain('add `body.time_entry.activity_id: "{{activity.id}}"`');
    expect(r.stdout).toMatch(
      /`time_entry\.activity_id` held a literal \(a description's example, an id from elsewhere\), which names nothing this run made; then 201/,
    );
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    expect(api.projects.size + api.issues.size + api.entries.size).toBe(0);
  }, 60_000);
});
