// explore on the runner's probe seam, against an in-repo projects API: one login for the whole
// run, sequences that only judge (and only write) what they created themselves, and findings
// re-proven by a replay before they are reported (one that does not show again is flaky).
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { explore, type ExploreResult } from '../../src/explore/index.js';
import { loadProject, type Project } from '../../src/project/index.js';
import { PROJECTS_PROJECT, PROJECTS_PW, startProjectsApi, type ProjectsApi } from '../helpers/projects-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let project: Project;
let dir: string;
const apis: ProjectsApi[] = [];

beforeAll(async () => {
  dir = await writeProject(PROJECTS_PROJECT);
  project = await loadProject(dir);
});
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close()));
});
afterAll(() => cleanProjects());

async function run(api: ProjectsApi, seed: number, budgetMs = 3000, onFinding?: (code: string) => void): Promise<ExploreResult> {
  const contract = await loadContract(path.join(dir, 'openapi.yaml'), 'fail', dir);
  return explore(project, {
    contract,
    budgetMs,
    seed,
    destructive: false,
    vars: { baseUrl: api.url },
    processEnv: { FLOW_SECRET_PROJECTS_PW: PROJECTS_PW },
    onFinding: (f) => onFinding?.(`${f.code} ${f.operation}`),
  });
}

async function api(options: Parameters<typeof startProjectsApi>[0] = {}) {
  const a = await startProjectsApi(options);
  apis.push(a);
  return a;
}

const found = (r: ExploreResult) => r.findings.map((f) => `${f.code} ${f.operation}`);

describe('explore on the probe seam', () => {
  it('logs in once for the whole run, however many sequences', async () => {
    const a = await api();
    const r = await run(a, 3, 5000);
    expect(r.sequences).toBeGreaterThan(2);
    expect(a.count('POST /login')).toBe(1);
  }, 60_000);

  it('judges and writes only what its own sequence created: another writer at work on a listed project is no finding', async () => {
    const a = await api();
    const r = await run(a, 11);
    expect(a.count('GET /projects')).toBeGreaterThan(0);
    expect(found(r)).not.toContain('E_NOT_PERSISTED project.update');
    // the project the run did not create was read in lists, never written nor deleted
    const touched = a.requests.filter((q) => q.path === '/projects/shared').map((q) => q.method);
    expect(touched).toEqual([]);
    expect(a.projects.has('shared')).toBe(true);
  }, 60_000);

  it('reports a planted bug once its replay showed it again, as it is made', async () => {
    const a = await api();
    const made: Array<{ finding: string; requests: number }> = [];
    const r = await run(a, 5, 4000, (f) => made.push({ finding: f, requests: a.requests.length }));
    expect(found(r)).toContain('E_SERVER_ERROR project.get');
    // reported during the run, not at its end: requests went on after it
    expect(made.find((m) => m.finding === 'E_SERVER_ERROR project.get')!.requests).toBeLessThan(a.requests.length);
    // the replay sent the finding's steps once more: the bad create twice at least
    const f = r.findings.find((x) => x.code === 'E_SERVER_ERROR')!;
    const body = f.steps.find((s) => s.role === 'create')?.request?.body;
    expect(a.requests.filter((q) => q.method === 'POST' && q.path === '/projects' && q.text() === body).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a problem its replay does not show again is flaky, not a finding', async () => {
    const a = await api({ flakyOnce: true });
    const r = await run(a, 5);
    expect(a.requests.filter((q) => q.method === 'PATCH').length).toBeGreaterThan(1);
    expect(found(r)).not.toContain('E_SERVER_ERROR project.update');
    expect(r.flaky.map((f) => `${f.code} ${f.operation}`)).toEqual(['E_SERVER_ERROR project.update']);
    expect(r.flaky[0].shown).toBeGreaterThanOrEqual(1);
    expect(found(r)).toEqual([]);
  }, 60_000);

  it('counts the answers by class', async () => {
    const a = await api({ status: 429 });
    const r = await run(a, 1, 1000);
    expect(r.answers['429']).toBeGreaterThan(1);
    expect(r.answers['2xx']).toBe(1); // the login
    expect(r.answers['5xx'] + r.answers['404'] + r.answers['401/403'] + r.answers['other 4xx']).toBe(0);
  }, 60_000);
});
