// `flow calibrate` on a hand-written project for an issue tracker that answers as Redmine 5 does
// (test/helpers/tracker-api.ts): a relation between two issues, `POST /issues/{{issue.id}}/relations.json`
// with `issue_to_id: 7` (an id the user does not know), and a sub-task's `parent_issue_id: 7`
// on `PUT /issues/{{issue.id}}.json`. The 422 quotes no value ("Related issue cannot be blank",
// "Parent task is invalid"); the field is named after the issue the path names, with more words
// (`issue_to`, `parent_issue`): the same issue would be refused, so another issue of the run's
// own is tried, `{{issue[-2].id}}`. The relation's DELETE and the clean-up remove the relation
// before the issues; nothing is left.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { ADMIN_KEY, startTrackerApi, type TrackerApi } from '../helpers/tracker-api.js';
import { json, startServer } from '../helpers/http-server.js';
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

const left = () => api.projects.size + api.issues.size + api.relations.size;

const project = (issueExtra: string[], relation: string[]) => ({
  'flow.yaml': 'version: 1\nname: tracker\nimports: [environments/*.yaml, actors/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'actors/admin.yaml': 'name: admin\nauth: { strategy: api_key, location: header, name: X-Tracker-Key, key: "{{secret.TRACKER_KEY}}" }\n',
  'resources/projects.yaml': [
    'name: project',
    'operations:',
    '  create: { method: POST, path: /projects.json, actor: admin, body: { project: { name: P, identifier: "p-{{$.uuid}}" } }, expect_status: 201, extract: { id: $.data.project.id } }',
    '  delete: { method: DELETE, path: "/projects/{{project.id}}.json", actor: admin, expect_status: 204 }',
    '',
  ].join('\n'),
  'resources/issues.yaml': [
    'name: issue',
    'operations:',
    '  create: { method: POST, path: /issues.json, actor: admin, body: { issue: { project_id: "{{project.id}}", subject: s } }, expect_status: 201, extract: { id: $.data.issue.id } }',
    ...issueExtra,
    '  delete: { method: DELETE, path: "/issues/{{issue.id}}.json", actor: admin, expect_status: 204 }',
    '',
  ].join('\n'),
  ...(relation.length ? { 'resources/relations.yaml': ['name: relation', 'operations:', ...relation, ''].join('\n') } : {}),
});

const RELATION = [
  '  create: { method: POST, path: "/issues/{{issue.id}}/relations.json", actor: admin, body: { relation: { issue_to_id: 7, relation_type: relates } }, expect_status: 201, extract: { id: $.data.relation.id } }',
  '  list: { path: "/issues/{{issue.id}}/relations.json", actor: admin }',
  '  get: { path: "/relations/{{relation.id}}.json", actor: admin }',
  '  delete: { method: DELETE, path: "/relations/{{relation.id}}.json", actor: admin, expect_status: 204 }',
];

describe('flow calibrate: a body id named after the instance the path names, refused: another instance', () => {
  it('issue_to_id: 7 under /issues/{{issue.id}}/relations.json: {{issue[-2].id}}; then the run relates two issues of its own, and its DELETE goes before theirs', async () => {
    const dir = await writeProject(project([], RELATION));
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
    expect(r.stdout).toContain('add `body.relation.issue_to_id: "{{issue[-2].id}}"`');
    expect(r.stdout).toMatch(
      /answered 422 to `relation\.issue_to_id` \(7\), named after the issue its path names with \{\{issue\.id\}\}, which would be the same issue: another issue of this run's own; then 201/,
    );
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    expect(await readFile(path.join(dir, 'resources/relations.yaml'), 'utf8')).toContain('issue_to_id: "{{issue[-2].id}}"');
    expect(left()).toBe(0);
    // the project as written is settled: a second calibrate proposes nothing
    const again = await flow(dir, ['calibrate', '--writes', '--destructive']);
    expect(again.stdout).toContain('None: no answer contradicts an expectation.');
    expect(left()).toBe(0);
    const before = api.requests.length;
    const run = await flow(dir, ['run', '--all']);
    expect(run.stdout).toMatch(/^9 passed, 0 failed/m);
    const sent = api.requests.slice(before);
    const [older, newer] = sent.filter((q) => q.method === 'POST' && q.path === '/issues.json').map((_, i) => i + 1);
    const related = sent.find((q) => q.method === 'POST' && q.path.endsWith('/relations.json'))!;
    expect(related.path).toBe(`/issues/${newer}/relations.json`);
    expect(related.json()).toEqual({ relation: { issue_to_id: older, relation_type: 'relates' } });
    // the relation's DELETE answered 204: it went before the issue's
    const deletes = sent.filter((q) => q.method === 'DELETE').map((q) => q.path);
    expect(deletes.indexOf('/relations/1.json')).toBeGreaterThanOrEqual(0);
    expect(deletes.indexOf('/relations/1.json')).toBeLessThan(deletes.indexOf(`/issues/${newer}.json`));
    expect(left()).toBe(0);
    // the relation alone: the clean-up removes it first, newest first, then both issues
    const from = api.requests.length;
    const one = await flow(dir, ['run', 'relation.create']);
    expect(one.stdout).toMatch(/^4 passed, 0 failed/m);
    expect(api.requests.slice(from).flatMap((q) => (q.method === 'DELETE' ? [q.path] : []))).toEqual([
      '/relations/1.json',
      '/issues/2.json',
      '/issues/1.json',
      '/projects/1.json',
    ]);
    expect(left()).toBe(0);
  }, 60_000);

  it('parent_issue_id: 7 on PUT /issues/{{issue.id}}.json ("Parent task is invalid"): {{issue[-2].id}}; the sub-task and its parent are the run\'s own', async () => {
    const subtask = '  subtask: { method: PUT, path: "/issues/{{issue.id}}.json", actor: admin, body: { issue: { parent_issue_id: 7 } }, expect_status: 204 }';
    const dir = await writeProject(project([subtask], []));
    const r = await flow(dir, ['calibrate', 'issue.subtask', '--writes', '--destructive', '--apply']);
    expect(r.stdout).toContain('add `body.issue.parent_issue_id: "{{issue[-2].id}}"`');
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(left()).toBe(0);
    const before = api.requests.length;
    const run = await flow(dir, ['run', '--all']);
    expect(run.stdout).toMatch(/^6 passed, 0 failed/m);
    const put = api.requests.slice(before).find((q) => q.method === 'PUT')!;
    expect(put.path).toBe('/issues/2.json');
    expect(put.json()).toEqual({ issue: { parent_issue_id: 1 } });
    expect(left()).toBe(0);
  }, 60_000);
});

describe('flow calibrate: a body id linked to the very instance the path names, refused: another instance', () => {
  it('account_id under /accounts/{{account.id}}/transfers: {{account.id}} is tried first (a transfer to itself, refused), then {{account[-2].id}}', async () => {
    const accounts = new Set<number>();
    let next = 0;
    const bank = await startServer({
      '*': (req, res) => {
        if (req.method === 'POST' && req.path === '/accounts') {
          accounts.add(++next);
          return json(res, 201, { id: next });
        }
        const one = /^\/accounts\/(\d+)(\/transfers)?$/.exec(req.path);
        const id = Number(one?.[1]);
        if (!one || !accounts.has(id)) return json(res, 404, { message: 'Not found' });
        if (req.method === 'DELETE' && !one[2]) return void (accounts.delete(id), res.writeHead(204).end());
        if (req.method !== 'POST' || !one[2]) return json(res, 404, { message: 'Not found' });
        const to = Number((req.json() as { account_id?: unknown }).account_id);
        if (!accounts.has(to)) return json(res, 404, { message: 'Not found' });
        if (to === id) return json(res, 422, { message: 'A transfer goes elsewhere' });
        json(res, 201, { id: 1 });
      },
    });
    try {
      const dir = await writeProject({
        'flow.yaml': 'version: 1\nname: bank\nimports: [environments/*.yaml, resources/*.yaml]\n',
        'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
        'resources/accounts.yaml': [
          'name: account',
          'operations:',
          '  create: { method: POST, path: /accounts, body: { owner: o }, expect_status: 201, extract: { id: $.data.id } }',
          '  delete: { method: DELETE, path: "/accounts/{{account.id}}", expect_status: 204 }',
          '',
        ].join('\n'),
        'resources/transfers.yaml':
          'name: transfer\noperations:\n  create: { method: POST, path: "/accounts/{{account.id}}/transfers", body: { account_id: 99, amount: 5 }, expect_status: 201 }\n',
      });
      const rec = recordedIO({ cwd: dir, env: {} });
      await main(['calibrate', 'transfer.create', '--writes', '--destructive', '--apply', '--var', `baseUrl=${bank.url}`], rec.io);
      expect(rec.out()).toContain('add `body.account_id: "{{account[-2].id}}"`');
      expect(rec.out()).toMatch(
        /names nothing this run made; then 422: `account_id` as \{\{account\.id\}\} is the account its path names: another account of this run's own; then 201/,
      );
      expect(rec.out()).toContain('## Open questions\n\nNone.');
      expect(await readFile(path.join(dir, 'resources/transfers.yaml'), 'utf8')).toContain('account_id: "{{account[-2].id}}"');
      expect(accounts.size).toBe(0);
    } finally {
      await bank.close();
    }
  }, 60_000);
});
