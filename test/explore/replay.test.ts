// A finding's replay file sends exactly what the sequence sent: a step shown "(not sent)" is
// not in it. Each finding is a file of its own that replays alone.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, expect, it } from 'vitest';
import { writeReplays } from '../../src/explore/index.js';
import type { ExploreFinding } from '../../src/explore/replay.js';
import { loadProject } from '../../src/project/index.js';
import { PROJECTS_PROJECT } from '../helpers/projects-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterAll(() => cleanProjects());

const request = (method: 'GET' | 'POST' | 'DELETE', url: string) => ({ method, url, headers: {} });
const response = (status: number) => ({ status, headers: {}, body: '', ms: 1 });

it('leaves out a step that was not sent, and writes one file per finding', async () => {
  const dir = await writeProject(PROJECTS_PROJECT);
  const project = await loadProject(dir);
  const finding: ExploreFinding = {
    code: 'E_SERVER_ERROR',
    operation: 'project.get',
    message: 'GET /projects/{{project.id}} answered 500',
    seed: 1,
    problem: { code: 'E_SERVER_ERROR', message: 'GET /projects/{{project.id}} answered 500' },
    steps: [
      {
        operation: 'project.create',
        role: 'create',
        body: { name: '' },
        invalid: false,
        status: 201,
        request: request('POST', '/projects'),
        response: response(201),
      },
      { operation: 'project.delete', role: 'delete', invalid: false },
      { operation: 'project.get', role: 'read', invalid: false, status: 500, request: request('GET', '/projects/p1'), response: response(500) },
    ],
  };
  const other: ExploreFinding = { ...finding, code: 'E_CONTRACT', problem: { ...finding.problem, code: 'E_CONTRACT' }, steps: finding.steps.slice(0, 1) };
  const out = path.join(dir, 'found');
  await writeReplays(project, [finding, other], out, () => undefined);
  const doc = parse(await readFile(finding.file!, 'utf8')) as { operations: Record<string, { method?: string; depends_on?: string[] }> };
  expect(Object.keys(doc.operations)).toEqual(['step1_create', 'check']);
  expect(Object.values(doc.operations).map((o) => o.method ?? 'GET')).toEqual(['POST', 'GET']);
  expect(doc.operations.check.depends_on).toEqual(['finding_server_error_project_get.step1_create']);
  expect(other.file).not.toBe(finding.file);
});

it('a replay acts on what it creates itself, however the project spaces its references (`{{ project.id }}`)', async () => {
  // the spaces the template parser allows: a pattern for `{{project.` left them to the project's own instance
  const files = { ...PROJECTS_PROJECT, 'resources/projects.yaml': PROJECTS_PROJECT['resources/projects.yaml'].replaceAll('{{project.', '{{ project.') };
  const dir = await writeProject(files);
  const project = await loadProject(dir);
  const finding: ExploreFinding = {
    code: 'E_SERVER_ERROR',
    operation: 'project.get',
    message: 'GET /projects/{{ project.id }} answered 500',
    seed: 1,
    problem: { code: 'E_SERVER_ERROR', message: 'GET /projects/{{ project.id }} answered 500' },
    steps: [
      {
        operation: 'project.create',
        role: 'create',
        body: { name: 'x' },
        invalid: false,
        status: 201,
        request: request('POST', '/projects'),
        response: response(201),
      },
      { operation: 'project.get', role: 'read', invalid: false, status: 500, request: request('GET', '/projects/p1'), response: response(500) },
    ],
  };
  await writeReplays(project, [finding], path.join(dir, 'found'), () => undefined);
  const doc = parse(await readFile(finding.file!, 'utf8')) as { name: string; operations: Record<string, { path: string }> };
  expect(doc.operations.check.path).toBe(`/projects/{{ ${doc.name}.id}}`);
});
