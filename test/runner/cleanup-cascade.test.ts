// An instance whose own removal is refused, made under one the clean-up then removes: an issue
// tracker refuses a user's DELETE of an issue (403, empty body) and deletes a project with its
// issues. The clean-up removes the issue first (newest first), is refused, removes the project;
// the issue is gone with it. Reported left, it would send a person to look for what is not
// there: the clean-up reads such an instance back once after the removals that follow it, and
// a 404 counts it gone. Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startTrackerApi, USER_KEY, type TrackerApi } from '../helpers/tracker-api.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

let api: TrackerApi;

beforeEach(async () => {
  await api?.close();
  api = await startTrackerApi();
});

afterAll(async () => {
  await closeRunners();
  await api?.close();
});

const actor = (name: string, secret: string) =>
  `name: ${name}\nauth: { strategy: api_key, location: header, name: X-Tracker-Key, key: "{{secret.${secret}}}" }\n`;

const files = (issueActor: string) => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url }),
  'actors/admin.yaml': actor('admin', 'ADMIN_KEY'),
  'actors/user.yaml': actor('user', 'USER_KEY'),
  'resources/project.yaml': [
    'name: project',
    'operations:',
    '  create: { method: POST, path: /projects.json, actor: admin, body: { project: { name: P, identifier: "p-{{$.uuid}}" } }, expect_status: 201, extract: { id: $.data.project.id } }',
    '  get: { path: "/projects/{{project.id}}.json", actor: admin }',
    '  delete: { method: DELETE, path: "/projects/{{project.id}}.json", actor: admin, expect_status: 204 }',
  ].join('\n'),
  'resources/issue.yaml': [
    'name: issue',
    'operations:',
    `  create: { method: POST, path: /issues.json, actor: ${issueActor}, body: { issue: { project_id: "{{project.id}}", subject: s } }, expect_status: 201, extract: { id: $.data.issue.id } }`,
    `  get: { path: "/issues/{{issue.id}}.json", actor: ${issueActor} }`,
    `  delete: { method: DELETE, path: "/issues/{{issue.id}}.json", actor: ${issueActor}, expect_status: 204 }`,
  ].join('\n'),
});

const secrets = { ADMIN_KEY, USER_KEY };
const sent = () => api.requests.filter((r) => r.method !== 'POST').map((r) => `${r.method} ${r.path}`);

describe('the clean-up: what a later removal took along is gone, not left', () => {
  it('an issue whose DELETE is refused, removed with its project: read back once (404), deleted', async () => {
    const { runner } = await load(files('user'), { secrets });
    expect((await runner.run('issue.create')).status).toBe('passed');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /issues/1.json', 'DELETE /projects/1.json', 'GET /projects/1.json', 'GET /issues/1.json']);
    expect(api.issues.size + api.projects.size).toBe(0);
    expect(report.left).toEqual([]);
    expect(report.deleted).toEqual([
      expect.objectContaining({ resource: 'issue', id: '1', via: 'issue.delete', status: 403, gone: 'issue.get 404 after project.delete' }),
      expect.objectContaining({ resource: 'project', id: '1', via: 'project.delete', status: 204 }),
    ]);
  });

  it('one still there after the later removals stays left, with why; nothing more is sent for it', async () => {
    const { runner } = await load(files('user'), { secrets });
    await runner.run('issue.create');
    // the project's delete is refused too: nothing took the issue along
    api.route('DELETE /projects/1.json', (_req, res) => void res.writeHead(403, { 'content-type': 'application/json', 'content-length': 0 }).end());
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /issues/1.json', 'DELETE /projects/1.json']);
    expect(report.left.map((l) => [l.resource, l.why])).toEqual([
      ['issue', 'issue.delete answered 403'],
      ['project', 'project.delete answered 403'],
    ]);
  });

  it("an issue the project's removal did not take along: read back, still there, left", async () => {
    const { runner } = await load(files('user'), { secrets });
    await runner.run('issue.create');
    // the project is deleted, its issue kept (a server that does not cascade)
    api.route('DELETE /projects/1.json', (_req, res) => {
      api.projects.delete(1);
      res.writeHead(204).end();
    });
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /issues/1.json', 'DELETE /projects/1.json', 'GET /projects/1.json', 'GET /issues/1.json']);
    expect(report.left).toEqual([expect.objectContaining({ resource: 'issue', id: '1', via: 'issue.delete', status: 403, why: 'issue.delete answered 403' })]);
    expect(api.issues.size).toBe(1);
  });
});
