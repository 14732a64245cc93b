// `flow run` shows lint warnings before the results: a misspelt key passes lint (it is only
// W_UNKNOWN_KEY), and without them the run below would pass without a word about it.
// --strict makes them errors: nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer({ 'POST /things': (_req, res) => json(res, 201, { id: 7 }) });
  dir = await writeProject({
    'flow.yaml': 'version: 1\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
    'environments/local.yaml': `variables:\n  baseUrl: ${server.url}\n`,
    'resources/things.yaml': ['name: thing', 'operations:', '  create:', '    method: POST', '    path: /things', '    expect_stauts: 200', ''].join('\n'),
  });
});

afterAll(async () => {
  await server.close();
  await cleanProjects();
});

const WARNING = 'resources/things.yaml:6:5  warning  W_UNKNOWN_KEY  unknown key "expect_stauts" is ignored (did you mean "expect_status"?)';

describe('flow run and lint warnings', () => {
  it('prints each warning, one line with file:line, code and the key it meant, before the results', async () => {
    const io = capturingIO({ cwd: dir });
    const code = await main(['run', 'thing.create', '--no-cache'], io);
    expect(code, io.out + io.err).toBe(0);
    const lines = io.out.split('\n');
    expect(lines[0]).toBe(WARNING);
    expect(lines.findIndex((l) => l.includes('thing.create'))).toBeGreaterThan(0);
    expect(server.count('POST /things')).toBe(1);
  });

  it('a document on stdout stays alone there: the warnings go to stderr', async () => {
    const io = capturingIO({ cwd: dir });
    await main(['run', 'thing.create', '--no-cache', '--reporter', 'json'], io);
    expect(() => JSON.parse(io.out) as unknown).not.toThrow();
    expect(io.err.split('\n')[0]).toBe(WARNING);
  });

  it('--strict makes them errors: exit 1, and nothing is sent', async () => {
    const before = server.requests.length;
    const io = capturingIO({ cwd: dir });
    expect(await main(['run', 'thing.create', '--strict', '--no-cache'], io)).toBe(1);
    expect(io.err).toBe(`${WARNING}\nflow run: the project has 1 lint warning(s), which strict makes errors; nothing was sent\n`);
    expect(server.requests.length).toBe(before);
  });
});
