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

it('a depends_on entry is added to the list as written (its comment kept), or starts one', async () => {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nimports: [resources/*.yaml]\n',
    'resources/thing.yaml': [
      'name: thing',
      'operations:',
      '  setup: { method: POST, path: /api/setup }',
      '  create: { method: POST, path: /api/things, extract: { id: $.data.id } }',
      '  list:',
      '    path: /api/things',
      '    depends_on:',
      '      - thing.setup # the account first',
      '  search: { path: /api/search }',
      '',
    ].join('\n'),
  });
  const project = await loadProject(dir);
  const add = (operation: string, to: string): Proposal => ({ operation, observed, why: 'listed', edit: { kind: 'depends_on', operation, to } });
  await applyCalibration(project, [add('thing.list', 'thing.create'), add('thing.search', 'thing.create')], [], new Map());
  const text = await readFile(path.join(dir, 'resources/thing.yaml'), 'utf8');
  expect(text).toContain('    depends_on:\n      - thing.setup # the account first\n      - thing.create\n');
  expect(text).toContain('search: { path: /api/search, depends_on: [ thing.create ] }');
  const again = await loadProject(dir);
  expect(again.operations.get('thing.list')?.dependsOn).toEqual(['thing.setup', 'thing.create']);
  expect(again.operations.get('thing.search')?.dependsOn).toEqual(['thing.create']);
});
