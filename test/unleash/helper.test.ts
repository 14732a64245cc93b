// The Unleash test helper itself (test/helpers/unleash.ts), which other suites start their
// servers with: the admin token and the admin's login both work, a user seeds data of its
// own, and stop() leaves no process behind (PostgreSQL's included, run as another user).
import { expect, test } from 'vitest';
import { describeWhenAvailable } from '../helpers/needs.js';
import { markedProcesses } from '../helpers/processes.js';
import { createUser, seedFeature, startUnleash, unleashApi, unleashMissing } from '../helpers/unleash.js';

describeWhenAvailable('the Unleash test helper', unleashMissing(), () => {
  test('starts Unleash on PostgreSQL, logs in both ways, seeds as another user, and stop() ends both', async () => {
    const u = await startUnleash();
    try {
      expect(await unleashApi(u, 'GET', '/health')).toMatchObject({ health: 'GOOD' });
      // Unleash, PostgreSQL's postmaster and its background workers
      expect(markedProcesses(u.mark).length).toBeGreaterThan(2);
      const login = await fetch(`${u.url}/auth/simple/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: u.adminUser, password: u.adminPassword }),
      });
      expect(login.status).toBe(200);
      expect(login.headers.getSetCookie().join(';')).toContain('unleash-session=');

      const someone = await createUser(u, 'someone');
      const name = await seedFeature(u, 'seeded-by-someone', someone);
      const feature = (await unleashApi(u, 'GET', `/api/admin/projects/default/features/${name}`)) as { createdBy?: { id: number } };
      expect(feature.createdBy?.id).toBe(someone.id);
    } finally {
      await u.stop();
    }
    await u.stop(); // twice is harmless
    expect(markedProcesses(u.mark)).toEqual([]);
    await expect(fetch(`${u.url}/health`)).rejects.toThrow();
  });
});
