// A failing flow test's message carries "run `flow calibrate <id>` to see the proof" when the
// failure is of a kind calibrate can prove a fix for; results from a real run on a real server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadProject } from '../../src/project/index.js';
import { createRunner } from '../../src/runner/index.js';
import { failureError } from '../../src/vitest/failure.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer({
    'GET /things': (_req, res) => json(res, 200, { data: { id: 1 } }),
    'DELETE /things': (_req, res) => void res.writeHead(204).end(),
    'GET /private': (_req, res) => json(res, 401, { error: 'login required' }),
    'GET /broken': (_req, res) => json(res, 500, { error: 'boom' }),
    'POST /things': (_req, res) => json(res, 422, { error: 'title is required' }),
  });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

async function messageOf(operation: string): Promise<string> {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nname: hint\nimports: [environments/*.yaml, resources/*.yaml]\n',
    'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${srv.url}\n`,
    'resources/things.yaml': [
      'name: thing',
      'operations:',
      '  list: { path: /things, extract: { id: "$.data.data[*].id" } }',
      '  purge: { method: DELETE, path: /things, expect_status: 200 }',
      '  private: { path: /private }',
      '  broken: { path: /broken }',
      '  create: { method: POST, path: /things, body: { name: x } }',
      '',
    ].join('\n'),
  });
  const runner = createRunner(await loadProject(dir));
  try {
    return failureError(await runner.run(operation), dir).message;
  } finally {
    await runner.close();
  }
}

describe('calibration hint in a failure message', () => {
  test('a status the server answers otherwise (with the flags its method needs), a 401 without an actor, an extraction that found nothing', async () => {
    expect(await messageOf('thing.purge')).toContain('\n  hint: run `flow calibrate thing.purge --writes --destructive` to see the proof\n');
    expect(await messageOf('thing.private')).toContain('\n  hint: run `flow calibrate thing.private` to see the proof\n');
    expect(await messageOf('thing.list')).toContain('\n  hint: run `flow calibrate thing.list` to see the proof\n');
  });

  test('none for a 5xx or a 422 (nothing calibrate can prove)', async () => {
    expect(await messageOf('thing.broken')).not.toContain('flow calibrate');
    expect(await messageOf('thing.create')).not.toContain('flow calibrate');
  });
});
