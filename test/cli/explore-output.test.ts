// What `flow explore` says as it goes: each finding printed once re-proven, while the run
// goes on (not at its end); flaky problems apart; the answers by class; and a word when most
// sequences never got past their login, or when most answers were 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { PROJECTS_PROJECT, PROJECTS_PW, startProjectsApi, type ProjectsApi } from '../helpers/projects-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let dir: string;
const apis: ProjectsApi[] = [];

beforeAll(async () => {
  dir = await writeProject(PROJECTS_PROJECT);
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.close()));
  await cleanProjects();
});

async function explore(options: Parameters<typeof startProjectsApi>[0], args: string[], password = PROJECTS_PW) {
  const api = await startProjectsApi(options);
  apis.push(api);
  const io = capturingIO({ cwd: dir, env: { FLOW_SECRET_PROJECTS_PW: password } });
  // how many requests the server had when each FINDING line was printed
  const at: number[] = [];
  const write = io.stdout;
  io.stdout = (t: string) => {
    if (t.startsWith('FINDING ')) at.push(api.requests.length);
    write(t);
  };
  const code = await main(['explore', '--openapi', 'openapi.yaml', ...args, '--var', `baseUrl=${api.url}`], io);
  return { code, out: io.out, err: io.err, api, at };
}

describe('flow explore output', () => {
  it('prints each finding as it is made, then the answers by class', async () => {
    const { code, out, api, at } = await explore({}, ['--budget', '60', '--rounds', '3', '--seed', '5', '--out', 'found']);
    expect(out).toContain('FINDING E_SERVER_ERROR project.get');
    expect(out).toContain('replay: found/resources/finding_server_error_project_get.yaml');
    expect(at.length).toBeGreaterThan(0);
    // the first finding was printed while the run went on
    expect(at[0]).toBeLessThan(api.requests.length);
    expect(out).toMatch(/^ {2}answers: \d+ \(2xx \d+, 401\/403 0, 404 \d+, 429 0, other 4xx \d+, 5xx \d+\)$/m);
    expect(out).not.toContain('never got past their login');
    expect(code).toBe(1);
  }, 90_000);

  it('a problem shown once is FLAKY, not a FINDING, and alone does not fail the run', async () => {
    const { code, out } = await explore({ flakyOnce: true }, ['--budget', '60', '--rounds', '10', '--seed', '5']);
    expect(out).toMatch(/^FLAKY E_SERVER_ERROR project\.update: shown by \d+ sequence\(s\), not by the replay of the first: not a finding$/m);
    expect(out).not.toContain('FINDING');
    expect(out).toMatch(/explore: 0 finding\(s\), 1 flaky/);
    expect(code).toBe(0);
  }, 90_000);

  it('a problem that a replay of it does not show every time is FLAKY: each finding is replayed 5 times', async () => {
    // every other PATCH fails: of two replays in a row, one passes
    const { code, out } = await explore({ flakyHalf: true }, ['--budget', '60', '--rounds', '12', '--seed', '5']);
    expect(out).toMatch(
      /^FLAKY E_SERVER_ERROR project\.update: shown by \d+ sequence\(s\), (by 1 replay\(s\) of the first, then not by the next|not by the replay of the first): not a finding$/m,
    );
    expect(out).not.toContain('FINDING');
    expect(code).toBe(0);
  }, 90_000);

  it('says when most answers were 429', async () => {
    const { out } = await explore({ status: 429 }, ['--budget', '1', '--seed', '1']);
    expect(out).toMatch(/^ {2}most answers were 429 \(too many requests\): \d+ of \d+/m);
  }, 60_000);

  it('says when most sequences never got past their login', async () => {
    const { code, out, err } = await explore({}, ['--budget', '1', '--seed', '1'], 'wrong');
    expect(out).toMatch(/^ {2}most sequences never got past their login: (\d+) of \1 /m);
    expect(err).toContain('no step got an answer');
    expect(code).toBe(1);
  }, 60_000);
});
