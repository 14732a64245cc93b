// The plugin's `explore` test with `authz: true` (src/vitest/explore.ts), in this process on the
// notes API of test/helpers/authz-api.ts: on the buggy twin it fails with the E_AUTHZ_*
// findings as it does with the others; on the correct twin it passes.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/index.js';
import { loadProject } from '../../src/project/index.js';
import { runExploreTest } from '../../src/vitest/explore.js';
import { AUTHZ_ENV, AUTHZ_TOKENS, authzProject, startAuthzApi, type AuthzApi } from '../helpers/authz-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let buggy: AuthzApi;
let fixed: AuthzApi;
let dir: string;
beforeAll(async () => {
  [buggy, fixed] = await Promise.all([startAuthzApi({ fixed: false }), startAuthzApi({ fixed: true })]);
  dir = await writeProject(authzProject());
});
afterAll(async () => {
  await Promise.all([buggy.close(), fixed.close()]);
  await cleanProjects();
});

// the cross-actor pass comes first (under a second), then 8 rounds, what 4 s explored on a
// quiet machine; the budget leaves the pass time on a loaded one
async function exploreTest(api: AuthzApi, authz: boolean): Promise<unknown> {
  const project = await loadProject(dir);
  const options = { openapi: path.join(dir, 'openapi.yaml'), explore: { budget: 60, rounds: 3, seed: 2, authz } };
  return runExploreTest(project, buildGraph(project), options, { vars: { baseUrl: api.url }, processEnv: { ...AUTHZ_ENV } }).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('the explore test with authz', () => {
  it('fails on the buggy twin with every authorization finding, no token shown', async () => {
    const err = (await exploreTest(buggy, true)) as { code: string; message: string };
    expect(err?.message).toMatch(/^7 finding\(s\)\n/);
    for (const f of [
      'E_AUTHZ_OTHER_READ note.get',
      'E_AUTHZ_OTHER_READ note.list',
      'E_AUTHZ_OTHER_WRITE note.delete',
      'E_AUTHZ_ANONYMOUS note.update',
      'E_AUTHZ_ROLE stats.get',
      'E_AUTHZ_ROLE page.feature',
    ])
      expect(err.message).toContain(`FINDING ${f}\n`);
    expect(err.code).toMatch(/^E_AUTHZ_/);
    for (const token of Object.values(AUTHZ_TOKENS)) expect(err.message).not.toContain(token);
  }, 90_000);

  it('passes on the correct twin', async () => {
    expect(await exploreTest(fixed, true)).toBeUndefined();
  }, 90_000);
});
