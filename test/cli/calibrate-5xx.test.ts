// A 5xx is the server failing, never evidence about the description: calibrate proposes no
// expect_status from it, not even from a 500 where another 5xx (503) is expected, and asks instead.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

afterAll(() => cleanProjects());

it.each([500, 502])('a %i where expect_status is 503 proves nothing: an open question, no edit', async (status) => {
  const srv = await startServer({ 'GET /maintenance': (_req, res) => json(res, status, { error: 'down' }) });
  try {
    const resource = 'name: window\noperations:\n  get:\n    path: /maintenance\n    expect_status: 503 # while we deploy\n';
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nname: fivexx\nimports: [environments/*.yaml, resources/*.yaml]\n',
      'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${srv.url}\n`,
      'resources/window.yaml': resource,
    });
    const rec = recordedIO({ cwd: dir });
    const code = await main(['calibrate', '--apply'], rec.io);
    expect(rec.out()).toContain(`the server failed (${status}); a 5xx proves nothing about the description`);
    expect(rec.out()).not.toContain('expect_status: 503` -> ');
    expect(await readFile(path.join(dir, 'resources/window.yaml'), 'utf8')).toBe(resource);
    expect(code).toBe(1);
  } finally {
    await srv.close();
  }
});
