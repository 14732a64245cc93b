// A server that reuses ids (the largest in use plus one, as an issue tracker on SQLite does):
// the run deletes its issue 1, someone else then creates an issue and gets id 1. The clean-up
// reads back what a DELETE answered 2xx for; finding issue 1, it must not take it for its own
// and delete it again: the creation time the create answered (`created_on`) differs from the
// one the read gives, so it is another issue, and the run's is gone. Checked on the server's side.
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

const files = () => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url }),
  'actors/admin.yaml': 'name: admin\nauth: { strategy: api_key, location: header, name: X-Tracker-Key, key: "{{secret.ADMIN_KEY}}" }\n',
  'resources/project.yaml': [
    'name: project',
    'operations:',
    '  create: { method: POST, path: /projects.json, actor: admin, body: { project: { name: P, identifier: "p-{{$.uuid}}" } }, expect_status: 201, extract: { id: $.data.project.id } }',
    '  delete: { method: DELETE, path: "/projects/{{project.id}}.json", actor: admin, expect_status: 204 }',
  ].join('\n'),
  'resources/issue.yaml': [
    'name: issue',
    'operations:',
    '  create: { method: POST, path: /issues.json, actor: admin, body: { issue: { project_id: "{{project.id}}", subject: s } }, expect_status: 201, extract: { id: $.data.issue.id } }',
    '  get: { path: "/issues/{{issue.id}}.json", actor: admin }',
    '  delete: { method: DELETE, path: "/issues/{{issue.id}}.json", actor: admin, expect_status: 204 }',
  ].join('\n'),
});

/** Someone else's issue, in a project of theirs, made through the API as they would. */
async function othersIssue(): Promise<number> {
  api.projects.set(50, { id: 50, name: 'theirs', identifier: 'theirs' });
  const res = await fetch(`${api.url}/issues.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tracker-key': USER_KEY },
    body: JSON.stringify({ issue: { project_id: 50, subject: 'not the run’s' } }),
  });
  return ((await res.json()) as { issue: { id: number } }).issue.id;
}

const sent = () => api.requests.filter((r) => r.method !== 'POST').map((r) => `${r.method} ${r.path}`);

describe('the clean-up on a server that reuses ids', () => {
  it('an id another client took after the run deleted its own: read back, not deleted again', async () => {
    const { runner } = await load(files(), { secrets: { ADMIN_KEY } });
    expect((await runner.run('issue.delete')).status).toBe('passed');
    expect(await othersIssue()).toBe(1);
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /issues/1.json', 'GET /issues/1.json', 'DELETE /projects/1.json']);
    expect([...api.issues.values()].map((i) => i.subject)).toEqual(['not the run’s']);
    expect(report.left).toEqual([]);
  });

  it('the same issue still there (the DELETE answered 204 and kept it): sent once more, then left, as before', async () => {
    const { runner } = await load(files(), { secrets: { ADMIN_KEY } });
    await runner.run('issue.create');
    api.route('DELETE /issues/1.json', (_req, res) => void res.writeHead(204).end());
    // and the project's delete takes nothing along
    api.route('DELETE /projects/1.json', (_req, res) => {
      api.projects.delete(1);
      res.writeHead(204).end();
    });
    await runner.run('issue.delete');
    const report = await runner.cleanUp();
    expect(sent()).toEqual([
      'DELETE /issues/1.json',
      'GET /issues/1.json',
      'DELETE /issues/1.json',
      'GET /issues/1.json',
      'DELETE /projects/1.json',
      // read once more after the project's removal: still there
      'GET /issues/1.json',
    ]);
    expect(report.left.map((l) => [l.resource, l.why])).toEqual([['issue', 'issue.delete 204 (and during the run), yet issue.get still reads it']]);
  });
  it("the same issue, its creation time written another way by the read (no milliseconds): still the run's, left", async () => {
    const { runner } = await load(files(), { secrets: { ADMIN_KEY } });
    await runner.run('issue.create');
    api.route('DELETE /issues/1.json', (_req, res) => void res.writeHead(204).end());
    api.route('GET /issues/1.json', (_req, res) => {
      const row = api.issues.get(1)!;
      const issue = { ...row, created_on: String(row.created_on).replace(/\.\d{3}Z$/, 'Z') };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issue }));
    });
    api.route('DELETE /projects/1.json', (_req, res) => {
      api.projects.delete(1);
      res.writeHead(204).end();
    });
    await runner.run('issue.delete');
    const report = await runner.cleanUp();
    expect(report.left.map((l) => [l.resource, l.why])).toEqual([['issue', 'issue.delete 204 (and during the run), yet issue.get still reads it']]);
    expect(report.deleted.map((d) => d.resource)).toEqual(['project']);
  });
});
