// One exit code per kind of problem, whatever the command (src/open, src/cli/problem.ts): a
// wrong --project is a usage error (2) for `flow lint`, `flow run` and `flow graph` alike; a
// project with lint errors is a failure found (1); an environment the project lacks is a usage
// error (2). Nothing here reaches a server: each problem stops a command before the runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const COMMANDS: Record<string, string[]> = {
  lint: ['lint'],
  run: ['run', 'item.get'],
  graph: ['graph'],
};

const ROOT = 'version: 1\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n';
const LOCAL = 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n';

let cwd: string;
beforeAll(async () => {
  cwd = await writeProject({
    // no flow.yaml here
    'empty/README.md': 'x',
    'ok/flow.yaml': ROOT,
    'ok/environments/local.yaml': LOCAL,
    'ok/resources/items.yaml': 'name: item\noperations:\n  get: { path: /items }\n',
    'broken/flow.yaml': ROOT,
    'broken/environments/local.yaml': LOCAL,
    'broken/resources/items.yaml': 'name: item\noperations:\n  get: { path: "/items/{{nobody.id}}" }\n',
  });
});
afterAll(cleanProjects);

async function flow(argv: string[]) {
  const rec = recordedIO({ cwd });
  const code = await main(argv, rec.io);
  return { code, out: rec.out(), err: rec.err() };
}

describe.each(Object.entries(COMMANDS))('flow %s', (name, argv) => {
  it('exits 2 for a project directory that does not exist', async () => {
    const r = await flow([...argv, '-p', 'missing']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^flow ${name}: no project at missing \\(project directory .* does not exist\\)`, 'm'));
  });

  it('exits 2 for a directory without flow.yaml', async () => {
    const r = await flow([...argv, '-p', 'empty']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^flow ${name}: no flow\\.yaml in empty`, 'm'));
  });

  it('exits 1 for a project with lint errors, naming the error', async () => {
    const r = await flow([...argv, '-p', 'broken']);
    expect(r.code).toBe(1);
    expect(r.out + r.err).toContain('E_REF_UNDEFINED');
  });
});

it('flow run: an environment the project lacks is a usage error (2), as in the Vitest plugin', async () => {
  const r = await flow(['run', 'item.get', '-p', 'ok', '--env', 'prod']);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/^flow run: environment "prod" is not defined \(defined: local\)/);
});
