import { afterAll, describe, expect, test } from 'vitest';
import { buildGraph, MAX_PARTS, MIN_PART_OPERATIONS, shardParts, splitProject } from '../../src/graph/index.js';
import { loadProject } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { wideProjectYaml } from '../helpers/wide-project.js';
import { graphOf } from './helpers.js';

afterAll(cleanProjects);

async function wide(resources: number, per: number, opts: { shared?: boolean } = {}) {
  const project = await loadProject(await writeProject({ 'flow.yaml': wideProjectYaml(resources, per, opts) }));
  expect(project.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return buildGraph(project);
}

const allOf = (parts: Array<{ operations: string[] }>) => parts.flatMap((p) => p.operations);

describe('splitProject', () => {
  test('independent resources become one part each, every operation in exactly one part, in schedule order', async () => {
    const graph = await wide(20, 25);
    const parts = splitProject(graph);
    expect(parts).toHaveLength(20);
    expect(allOf(parts).sort()).toEqual([...graph.opIds].sort());
    const r7 = parts.find((p) => p.id === 'r007')!;
    expect(r7.operations[0]).toBe('r007.create');
    expect(r7.operations).toEqual(graph.opIds.filter((id) => id.startsWith('r007.')));
  });

  test('small groups are packed, whole, into parts of at least MIN_PART_OPERATIONS', async () => {
    const graph = await wide(40, 10);
    const parts = splitProject(graph);
    expect(parts).toHaveLength(400 / MIN_PART_OPERATIONS);
    expect(parts.map((p) => p.id)).toEqual(Array.from({ length: 16 }, (_, r) => `r${String(r).padStart(3, '0')}`));
    expect(parts.map((p) => p.operations.length).sort()).toEqual([...new Array<number>(8).fill(20), ...new Array<number>(8).fill(30)]);
    for (const part of parts)
      for (const id of part.operations.filter((x) => x.endsWith('.create'))) {
        const r = id.slice(0, -'.create'.length);
        expect(part.operations.filter((x) => x.startsWith(`${r}.`))).toHaveLength(10);
      }
  });

  test('the same project gives the same parts every time', async () => {
    const a = splitProject(await wide(40, 10));
    const b = splitProject(await wide(40, 10));
    expect(b).toEqual(a);
  });

  test('operations that share state stay together; a small project is one part', async () => {
    const many = (prefix: string, make: (k: number) => string) => Array.from({ length: 20 }, (_, k) => `      ${prefix}${k}: ${make(k)}`).join('\n');
    const body = `
resources:
  order:
    operations:
      create: { method: POST, path: /orders, extract: { id: $.id } }
${many('get', () => '{ path: "/orders/{{order.id}}" }')}
  item:
    operations:
${many('add', () => '{ method: POST, path: "/orders/{{order.id}}/items" }')}
  health:
    operations:
${many('check', () => '{ path: /health }')}
`;
    const parts = splitProject(await graphOf(body));
    expect(parts.map((p) => [p.id, p.operations.length])).toEqual([
      ['item', 41],
      ['health', 20],
    ]);
    expect(parts[0].operations[0]).toBe('order.create');
    const small = splitProject(await graphOf(body.replace(/^ {6}(get|add|check)1?[1-9]:.*\n/gm, '')));
    expect(small).toHaveLength(1);
  });

  test('a large group is cut by resource: each piece is one resource, and its prerequisites stay out of it', async () => {
    const graph = await wide(30, 5, { shared: true });
    const parts = splitProject(graph);
    // 151 operations in one group (every resource needs the account): cut by resource, packed
    expect(parts.length).toBe(6);
    expect(allOf(parts).sort()).toEqual([...graph.opIds].sort());
    for (const part of parts) {
      const resources = new Set(part.operations.map((id) => id.slice(0, id.lastIndexOf('.'))));
      // whole resources only
      for (const r of resources) expect(part.operations.filter((id) => id.startsWith(`${r}.`))).toEqual(graph.opIds.filter((id) => id.startsWith(`${r}.`)));
    }
  });

  test('at most MAX_PARTS parts, of about the same size', async () => {
    const parts = splitProject(await wide(200, 10));
    expect(parts).toHaveLength(MAX_PARTS);
    const sizes = parts.map((p) => p.operations.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(10);
  });
});

describe('shardParts', () => {
  test('every part in exactly one shard, shards balanced', async () => {
    const parts = splitProject(await wide(40, 10));
    const shards = [1, 2, 3, 4].map((k) => shardParts(parts, k, 4));
    expect(shards.flatMap((s) => s.map((p) => p.id)).sort()).toEqual(parts.map((p) => p.id).sort());
    for (const s of shards) expect(allOf(s)).toHaveLength(100);
  });
});
