// The Markdown report past Mermaid's limits (500 edges, 50,000 characters): a note instead of a
// graph that viewers would show as an error; and a long error message cut in the table only.
import { afterAll, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/index.js';
import { loadProject } from '../../src/project/index.js';
import { markdownReport } from '../../src/report/index.js';
import type { OperationResult } from '../../src/runner/types.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterAll(cleanProjects);

async function reportOf(count: number, message = 'expected 200, got 500') {
  const ops = Array.from({ length: count }, (_, i) => (i === 0 ? '  o0: { path: /first, extract: { f: $.data.f } }' : `  o${i}: { path: "/x/{{r.f}}" }`));
  const dir = await writeProject({
    'flow.yaml': `version: 1\nname: big\nenvironment: { name: local, variables: { baseUrl: "http://127.0.0.1:1" } }\nresources:\n  r:\n    operations:\n${ops.map((l) => `    ${l}`).join('\n')}\n`,
  });
  const project = await loadProject(dir);
  const results: OperationResult[] = [...project.operations.values()].map((op, i) => ({
    operation: op.id,
    status: i === 1 ? 'failed' : 'passed',
    loc: op.loc,
    prerequisiteOf: [],
    exchanges: [],
    extracted: {},
    asserts: [],
    ...(i === 1 ? { error: { code: 'E_STATUS_MISMATCH', message, loc: op.loc } } : {}),
    ms: 1,
  }));
  return markdownReport({
    project,
    graph: buildGraph(project),
    asked: [],
    results,
    summary: { passed: count - 1, failed: 1, skipped: 0, ms: 5 },
    startedAt: new Date(0),
    cwd: dir,
  });
}

it('draws the graph within the limits, and a note past them', async () => {
  expect(await reportOf(400)).toContain('```mermaid\nflowchart LR\n');
  const big = await reportOf(600);
  expect(big).not.toContain('```mermaid');
  expect(big).toContain('(The graph of these 600 operations is past what Mermaid draws;');
});

it('cuts a long error message in the table; the failure block keeps all of it', async () => {
  const message = `expected 200, got 500: ${'x'.repeat(500)}`;
  const md = await reportOf(3, message);
  const row = md.split('\n').find((l) => l.startsWith('| ✖ '))!;
  expect(row).toContain(`\`${message.slice(0, 199)}…\``);
  expect(md).toContain(`E_STATUS_MISMATCH: ${message}\n`);
});
