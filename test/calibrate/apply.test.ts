// applyCalibration writes proven edits into the project's files: two edits of one operation in
// one file, a whole body (a 415 answered) and then a field inside it (a 400 named it), both land.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { applyCalibration, type Proposal } from '../../src/calibrate/index.js';
import { loadProject } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterAll(cleanProjects);

const observed = { method: 'POST', path: '/api/things', status: 400 } as unknown as Proposal['observed'];

it('a body, then a field inside it, in the same file', async () => {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nimports: [resources/*.yaml]\n',
    'resources/thing.yaml': 'name: thing\noperations:\n  create:\n    method: POST\n    path: /api/things\n',
  });
  const project = await loadProject(dir);
  const proposals: Proposal[] = [
    { operation: 'thing.create', observed, why: '415', edit: { kind: 'body', operation: 'thing.create', value: {} } },
    { operation: 'thing.create', observed, why: '400', edit: { kind: 'body_field', operation: 'thing.create', field: 'environment', value: 'development' } },
  ];
  await applyCalibration(project, proposals, [], new Map());
  const text = await readFile(path.join(dir, 'resources/thing.yaml'), 'utf8');
  expect(text).toMatch(/body:\n\s+environment: development/);
  expect((await loadProject(dir)).operations.get('thing.create')?.body).toEqual({ environment: 'development' });
});
