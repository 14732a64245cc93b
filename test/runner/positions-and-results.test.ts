// Positions and results: an assert's record and error carry the assert's own line; a result
// is not changed once emitted; `force: true` is never reused (each of its two guards).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureMessage } from '../../src/report/index.js';
import type { OperationResult, RunEvent } from '../../src/runner/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    '/count': (_req, res) => json(res, 200, { state: 'open', count: 2 }),
    '/stamp': (_req, res) => json(res, 200, { data: { n: server.count('/stamp') } }),
    '/use': (_req, res) => json(res, 200, {}),
  });
});

afterAll(async () => {
  await closeRunners();
  await server.close();
});

function project(operations: string, concurrency = 1) {
  return load(
    {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url }),
      'resources/r.yaml': `name: r\noperations:\n${operations}`,
    },
    { concurrency },
  );
}

const ended = (events: RunEvent[], op: string): OperationResult[] =>
  events.flatMap((e) => (e.type === 'operation:end' && e.result.operation === op ? [e.result] : []));

describe('assert positions', () => {
  it("each assert record carries its line; the error is at the first failed one; the failure text shows the others' lines", async () => {
    const { runner, dir } = await project(
      [
        '  count:',
        '    path: /count',
        '    assert:',
        "      - $.data.state == 'open'", // line 6
        '      - 42', // not a string: not an assert (lint warns), and not counted
        '      - $.data.count == 3', // line 8
        '      - $.data.count > 5', // line 9
        '',
      ].join('\n'),
    );
    const result = await runner.run('r.count');
    expect(result.asserts.map((a) => [a.expr, a.pass, a.loc?.line, a.loc?.col])).toEqual([
      ["$.data.state == 'open'", true, 6, 9],
      ['$.data.count == 3', false, 8, 9],
      ['$.data.count > 5', false, 9, 9],
    ]);
    expect(result.error).toMatchObject({ code: 'E_ASSERT_FAILED', loc: { line: 8, col: 9 } });
    const text = failureMessage(result, dir);
    expect(text).toContain('  at resources/r.yaml:8:9 (r.count)');
    // the first failed assert is the `at` line already; the second names its own
    expect(text).toContain('    ✗ $.data.count == 3: expected 3, actual 2\n');
    expect(text).toContain('    ✗ $.data.count > 5: expected > 5, actual 2  (at resources/r.yaml:9:9)\n');
  });
});

describe('results are not changed once emitted', () => {
  it('a prerequisite reused later keeps its emitted result; the runner and runMany show the new dependent', async () => {
    const { runner, events } = await project(
      '  make: { path: /stamp }\n  a: { path: /use, depends_on: [r.make] }\n  b: { path: /use, depends_on: [r.make] }\n',
    );
    await runner.run('r.a');
    const [emitted] = ended(events, 'r.make');
    const snapshot = structuredClone(emitted);
    const summary = await runner.runMany(['r.b']);
    expect(emitted).toEqual(snapshot);
    expect(emitted.prerequisiteOf).toEqual(['r.a']);
    expect(runner.result('r.make')?.prerequisiteOf).toEqual(['r.a', 'r.b']);
    expect(summary.results.map((r) => r.operation)).toEqual(['r.b']);
    expect(ended(events, 'r.make')).toHaveLength(1);
  });

  it('runMany returns an asked operation as the later operations that reused it left it', async () => {
    const { runner, events } = await project('  make: { path: /stamp }\n  a: { path: /use, depends_on: [r.make] }\n');
    const summary = await runner.runMany(['r.make', 'r.a']);
    expect(summary.results.find((r) => r.operation === 'r.make')?.prerequisiteOf).toEqual(['r.a']);
    expect(ended(events, 'r.make')[0].prerequisiteOf).toEqual([]);
  });
});

describe('force: true', () => {
  const forced = '  make: { path: /stamp, force: true }\n  a: { path: /use, depends_on: [r.make] }\n  b: { path: /use, depends_on: [r.make] }\n';

  // Caught when runInOrder runs a forced prerequisite itself (5 stamps), and when ensure
  // reuses it (2: b reuses a's).
  it('a forced prerequisite that is not asked for runs once before each dependent, not on its own', async () => {
    for (const concurrency of [1, 4]) {
      const { runner, events } = await project(forced, concurrency);
      const before = server.count('/stamp');
      const summary = await runner.runMany(['r.a', 'r.b']);
      expect(summary.failed).toBe(0);
      expect(server.count('/stamp') - before).toBe(2);
      expect(ended(events, 'r.make').map((r) => r.prerequisiteOf)).toEqual([['r.a'], ['r.b']]);
    }
  });

  // Caught when ensure reuses the asked run (1 stamp): asked for, it is remembered.
  it('asked for too, it still runs afresh for each dependent', async () => {
    const { runner } = await project(forced);
    const before = server.count('/stamp');
    await runner.runMany(['r.make', 'r.a', 'r.b']);
    expect(server.count('/stamp') - before).toBe(3);
  });
});
