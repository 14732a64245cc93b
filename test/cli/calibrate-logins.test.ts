// `flow calibrate` runs every round and every try on forks of one runner: each actor logs in
// once per calibration, however many rounds and tries it takes (the drifting API needs
// several: a fixed status reveals a wrong extraction behind it).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DRIFT_PASSWORD, driftProject, startDriftingApi, type DriftingApi } from '../helpers/drifting-api.js';
import { cleanProjects } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: DriftingApi;
beforeAll(async () => {
  api = await startDriftingApi();
}, 120_000);
afterAll(async () => {
  await api.close();
  await cleanProjects();
}, 120_000);

it('logs each actor in once for the whole calibration', async () => {
  const dir = await driftProject();
  const rec = recordedIO({ cwd: dir, env: { FLOW_SECRET_DRIFT_PW: DRIFT_PASSWORD } });
  await main(['calibrate', '--writes', '--destructive', '--var', `baseUrl=${api.url}`], rec.io);
  expect(rec.out()).toMatch(/rounds?/i);
  const logins = api.requests.filter((r) => r.path === '/login');
  expect(logins.length).toBe(1);
  // and more than one round or try ran
  expect(api.requests.filter((r) => r.path !== '/login').length).toBeGreaterThan(8);
}, 120_000);
