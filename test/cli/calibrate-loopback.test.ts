// `flow calibrate` on a third-party server that serves its own OpenAPI description
// (@loopback/example-todo): its description imported with `flow import`, calibrated with
// --writes --destructive, --apply, then `flow run --all` passes. The server agrees with its
// own description, so calibrate must propose nothing there; a copy of the description that
// departs from it the way real ones do (POST documented 201, DELETE 200; a required body
// field left out) gets exactly the proposals the real answers prove.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loopbackMissing, startLoopbackTodo, type LoopbackTodo } from '../helpers/loopback-todo.js';
import { describeWhenAvailable } from '../helpers/needs.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const missing = loopbackMissing();

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd });
  const code = await main(args, rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

/** The server's own description, imported into a new project (with the edits a drifted description would have). */
async function importProject(server: LoopbackTodo, drift?: (doc: any) => void): Promise<string> {
  const doc = await (await fetch(`${server.url}/openapi.json`)).json();
  drift?.(doc);
  const dir = await writeProject({ 'openapi.json': JSON.stringify(doc) });
  const r = await flow(dir, ['import', 'openapi.json', '--out', 'project']);
  expect(r.code, r.stderr).toBe(0);
  return path.join(dir, 'project');
}

describeWhenAvailable('flow calibrate on @loopback/example-todo', missing, () => {
  let server: LoopbackTodo | undefined;
  beforeAll(async () => {
    server = await startLoopbackTodo();
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await cleanProjects();
  });
  const vars = () => ['--var', `baseUrl=${server!.url}`, '--var', 'todo_title=Buy milk'];

  it('its own description: nothing to propose; --apply records live_capture; run --all passes', async () => {
    const project = await importProject(server!);
    const r = await flow(project, ['calibrate', '--writes', '--destructive', '--apply', ...vars()]);
    expect(r.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    // 7 of its 8 operations: PATCH /todos (updateAll) changes every todo, an open question of the import (R6)
    expect(r.stdout).toMatch(/7 operation\(s\) run \(1 round\(s\)\), 7 passed/);
    expect(r.code).toBe(0);
    const todos = await readFile(path.join(project, 'resources/todos.yaml'), 'utf8');
    expect(todos.match(/verified_against: live_capture/g)).toHaveLength(7);
    expect(todos).not.toMatch(/method: PATCH\n +path: \/todos\n/);
    expect(todos).not.toContain('verified_against: synthetic');
    expect(todos).toContain('observed: DELETE /todos/{{todo.id}} -> 204');
    const run = await flow(project, ['run', '--all', ...vars()]);
    expect(run.stdout).toMatch(/^7 passed, 0 failed/m);
    expect(run.code).toBe(0);
  }, 60_000);

  it('a drifted copy of its description: the real answers prove the statuses (same class only) and the left-out required field', async () => {
    const project = await importProject(server!, (doc) => {
      const post = doc.paths['/todos'].post;
      post.responses = { 201: post.responses[200] };
      const del = doc.paths['/todos/{id}'].delete;
      del.responses = { 200: del.responses[204] };
      // PUT's body loses its required field
      doc.components.schemas.Todo.required = [];
    });
    const r = await flow(project, ['calibrate', 'todo.create', 'todo.delete', 'todo.update', '--writes', '--destructive', '--apply', ...vars()]);
    const proposals = [...r.stdout.matchAll(/^- Edit \(resources\/todos\.yaml:\d+\): (.+)$/gm)].map((m) => m[1]);
    expect(proposals.sort()).toEqual([
      '`expect_status: 200` -> `expect_status: 204`',
      '`expect_status: 201` -> `expect_status: 200`',
      'add `body.title: "{{$.faker.word}}"`',
    ]);
    // LoopBack's 422 (Ajv missingProperty) named the field; a try with a value got 204
    expect(r.stdout).toMatch(/- Why: answered 422 naming `title`; then 204\n/);
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    const run = await flow(project, ['run', '--all', ...vars()]);
    expect(run.stdout).toMatch(/^7 passed, 0 failed/m);
    const again = await flow(project, ['calibrate', '--writes', '--destructive', ...vars()]);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    expect(again.code).toBe(0);
  }, 60_000);

  it('a description whose create names no id: the id becomes a --var nobody gives; the live answers link it', async () => {
    const project = await importProject(server!, (doc) => {
      // no response schema names `id` (as the storage service's description)
      for (const schema of Object.values<{ properties?: Record<string, unknown> }>(doc.components.schemas)) delete schema.properties?.id;
    });
    const todos = await readFile(path.join(project, 'resources/todos.yaml'), 'utf8');
    const variable = /path: \/todos\/\{\{env\.(\w+)\}\}/.exec(todos)?.[1];
    expect(variable, todos).toBeDefined();
    const r = await flow(project, ['calibrate', '--writes', '--destructive', '--apply', ...vars()]);
    expect(r.stdout).toContain('add `extract: { id: $.data.id }`');
    expect(r.stdout).toContain(`\`{{env.${variable}}}\` -> \`{{todo.id}}\` in \`path\``);
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    const run = await flow(project, ['run', '--all', ...vars()]);
    expect(run.stdout).toMatch(new RegExp(`^${todos.match(/^ {2}\w+:$/gm)!.length} passed, 0 failed`, 'm'));
    const again = await flow(project, ['calibrate', '--writes', '--destructive', ...vars()]);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    expect(again.code).toBe(0);
  }, 60_000);
});
