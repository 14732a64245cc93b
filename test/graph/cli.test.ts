import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import graph from '../../src/cli/commands/graph.js';
import type { CliIO } from '../../src/cli/io.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/graph');

async function flowGraph(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    stdin: new PassThrough(),
    cwd: FIXTURES,
    env: {},
    isTTY: false,
    stdoutIsTTY: false,
  };
  const code = await graph(argv, io);
  return { code, out, err };
}

describe('flow graph', () => {
  it('prints every operation with its edges and their kind', async () => {
    const r = await flowGraph('--project', 'shop');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        'order.create  POST /api/v1/orders',
        '  -> product.publish  explicit  depends_on',
        '  -> product.create   implicit  {{product.id}}',
        'order.get  GET /api/v1/orders/{{order.id}}',
        '  -> order.create    implicit  {{order.id}}',
        '  -> product.create  implicit  {{product.id}}',
        'order.cancel  DELETE /api/v1/orders/{{order.id}}',
        '  -> order.create  implicit  {{order.id}}',
        'order.list  GET /api/v1/orders',
        'product.create  POST /api/v1/products',
        'product.publish  POST /api/v1/products/{{product.id}}/publish',
        '  -> product.create  implicit  {{product.id}}',
        '6 operations, 6 edges (5 implicit, 1 explicit)',
        '',
      ].join('\n'),
    );
  });

  it('--order: the schedule of the whole project, DELETE after the other ready operations', async () => {
    const r = await flowGraph('-p', 'shop', '--order');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(['order.list', 'product.create', 'product.publish', 'order.create', 'order.get', 'order.cancel']);
  });

  it('--order with operations: them and their prerequisites; json', async () => {
    const r = await flowGraph('-p', 'shop', '--order', '--format', 'json', 'order.get');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ order: ['product.create', 'product.publish', 'order.create', 'order.get'] });
  });

  it('json: edges with kind, reason and position', async () => {
    const r = await flowGraph('-p', 'shop', '-f', 'json', 'product.publish');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      operations: [
        { id: 'product.create', method: 'POST', path: '/api/v1/products', needs: [] },
        {
          id: 'product.publish',
          method: 'POST',
          path: '/api/v1/products/{{product.id}}/publish',
          needs: [{ operation: 'product.create', kind: 'implicit', via: '{{product.id}}', file: 'shop/resources/products.yaml', line: 15, col: 11 }],
        },
      ],
      cycles: [],
    });
  });

  it('dot: a digraph with dashed explicit edges', async () => {
    const r = await flowGraph('-p', 'shop', '-f', 'dot', 'order.create');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^digraph "shop" \{\n/);
    expect(r.out).toContain('  "order.create" -> "product.publish" [style=dashed, label="depends_on"];\n');
    expect(r.out).toContain('  "order.create" -> "product.create" [label="{{product.id}}"];\n');
    expect(r.out).not.toContain('order.get');
    expect(r.out.trimEnd().endsWith('}')).toBe(true);
  });

  it('exits 1 on a project with errors, the cycle printed on stdout and the errors on stderr', async () => {
    const r = await flowGraph('-p', 'broken');
    expect(r.code).toBe(1);
    expect(r.out).toContain('cycle: post.create -> post.publish -> post.create\n');
    expect(r.err).toContain('broken/resources/posts.yaml:7:18  error  E_CYCLE  circular dependency post.create -> post.publish -> post.create');
    expect(r.err).toContain('E_TEMPLATE_SYNTAX');
    expect(r.err).toMatch(/flow graph: the project has \d+ error\(s\)/);
  });

  it('exits 2 on usage errors, naming the problem', async () => {
    const unknownOp = await flowGraph('-p', 'shop', 'order.gett');
    expect(unknownOp).toMatchObject({ code: 2, out: '' });
    expect(unknownOp.err).toContain('unknown operation "order.gett" (did you mean order.get?)');
    expect(await flowGraph('-p', 'shop', '--format', 'svg')).toMatchObject({ code: 2, err: expect.stringContaining('unknown format "svg"') });
    expect(await flowGraph('-p', 'shop', '--order', '-f', 'dot')).toMatchObject({ code: 2, err: expect.stringContaining('--order prints a list') });
    expect(await flowGraph('--nope')).toMatchObject({ code: 2, err: expect.stringContaining('Usage: flow graph') });
  });

  it('--help explains edges, formats and exit codes', async () => {
    const r = await flowGraph('--help');
    expect(r.code).toBe(0);
    for (const word of ['implicit', 'explicit', 'depends_on', '--order', 'dot', 'json', 'Exit codes']) expect(r.out).toContain(word);
  });
});
