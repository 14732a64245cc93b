// Paths with a format extension (`POST /projects.json`, `DELETE /projects/{{env.project_id}}.json`,
// as an issue tracker has them) before the project names its instances: the POST is a create in
// the collection of `/projects/{…}.json`, and what it made is removed by that DELETE, the id in
// its answer put before the extension. Without the extension read so, the project it made stayed
// on the server, and nothing said so. Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startTrackerApi, type TrackerApi } from '../helpers/tracker-api.js';
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

const files = (create: string) => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url, project_id: '<SET_VIA_--var>' }),
  'actors/admin.yaml': 'name: admin\nauth: { strategy: api_key, location: header, name: X-Tracker-Key, key: "{{secret.ADMIN_KEY}}" }\n',
  'resources/project.yaml': [
    'name: project',
    'operations:',
    `  create: { method: POST, path: /projects.json, actor: admin, body: { project: { name: P, identifier: "p-{{$.uuid}}" } }${create} }`,
    '  get: { path: "/projects/{{env.project_id}}.json", actor: admin }',
    '  delete: { method: DELETE, path: "/projects/{{env.project_id}}.json", actor: admin, expect_status: 204 }',
  ].join('\n'),
});

const sent = () => api.requests.map((r) => `${r.method} ${r.path}`);

describe('the clean-up of a create in a collection whose paths end with .json', () => {
  it('a POST expected to answer 201: what it made is removed by the DELETE of `/projects/{{env.project_id}}.json`', async () => {
    const { runner } = await load(files(', expect_status: 201'), { secrets: { ADMIN_KEY } });
    expect((await runner.run('project.create')).status).toBe('passed');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['POST /projects.json', 'DELETE /projects/1.json']);
    expect(report.left).toEqual([]);
    expect(report.deleted).toEqual([expect.objectContaining({ resource: 'project', id: '1', via: 'project.delete', status: 204 })]);
    expect(api.projects.size).toBe(0);
  });

  it('a POST shaped as a create (no status expected): the same', async () => {
    const { runner } = await load(files(''), { secrets: { ADMIN_KEY } });
    await runner.run('project.create');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['POST /projects.json', 'DELETE /projects/1.json']);
    expect(report.left).toEqual([]);
    expect(api.projects.size).toBe(0);
  });

  it('a collection of another extension is not its collection: nothing is deleted', async () => {
    const { runner } = await load(
      { ...files(', expect_status: 201'), 'resources/project.yaml': files(', expect_status: 201')['resources/project.yaml'].replace(/\.json"/g, '.xml"') },
      { secrets: { ADMIN_KEY } },
    );
    await runner.run('project.create');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['POST /projects.json']);
    expect(report.deleted).toEqual([]);
    expect(api.projects.size).toBe(1);
  });
});
