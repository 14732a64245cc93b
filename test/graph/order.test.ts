import { afterAll, describe, expect, it } from 'vitest';
import { buildGraph, findCycles, prerequisites, scheduleOrder } from '../../src/graph/index.js';
import { cleanProjects } from '../helpers/project.js';
import { graphOf, syntheticProject } from './helpers.js';

afterAll(cleanProjects);

/** Deterministic numbers in [0, 1). */
const pseudoRandom = (i: number) => {
  const x = Math.sin(i) * 10_000;
  return x - Math.floor(x);
};

const join = (cycles: string[][]) => cycles.map((c) => c.join(' -> '));

describe('findCycles', () => {
  it('a 2-cycle through an implicit and an explicit edge, printed once from the first declared op', async () => {
    const g = await graphOf(`
resources:
  a:
    operations:
      x: { path: '/{{b.id}}', extract: { id: $.data.id } }
  b:
    operations:
      y: { depends_on: [a.x], extract: { id: $.data.id } }
`);
    expect(join(findCycles(g))).toEqual(['a.x -> b.y -> a.x']);
  });

  it('a 3-cycle, whatever operation the search starts from', async () => {
    const g = await graphOf(`
resources:
  r:
    operations:
      free: {}
      c: { depends_on: [r.a] }
      a: { depends_on: [r.b] }
      b: { depends_on: [r.c, r.free] }
`);
    expect(join(findCycles(g))).toEqual(['r.c -> r.a -> r.b -> r.c']);
  });

  it('a self-cycle via depends_on', async () => {
    const g = await graphOf(`
resources:
  r:
    operations:
      me: { depends_on: [r.me] }
      ok: {}
`);
    expect(findCycles(g)).toEqual([['r.me', 'r.me']]);
  });

  it('no cycles in an acyclic graph, including diamonds', async () => {
    const g = buildGraph(syntheticProject(4, (i) => ({ 0: [], 1: [0], 2: [0], 3: [1, 2] })[i] ?? []));
    expect(findCycles(g)).toEqual([]);
  });

  it('several cycles each once, sorted by declaration order', () => {
    // 0 <-> 1, 2 -> 3 -> 4 -> 2, and 1 -> 2 linking them (not a cycle by itself)
    const deps: Record<number, number[]> = { 0: [1], 1: [0, 2], 2: [3], 3: [4], 4: [2] };
    const g = buildGraph(syntheticProject(5, (i) => deps[i] ?? []));
    expect(join(findCycles(g))).toEqual(['r.o0 -> r.o1 -> r.o0', 'r.o2 -> r.o3 -> r.o4 -> r.o2']);
  });

  it('a cycle entered at a later operation still starts at its earliest declared one', () => {
    // the search goes o0 -> o2 -> o1 -> o2
    const deps: Record<number, number[]> = { 0: [2], 1: [2], 2: [1] };
    const g = buildGraph(syntheticProject(3, (i) => deps[i] ?? []));
    expect(join(findCycles(g))).toEqual(['r.o1 -> r.o2 -> r.o1']);
  });

  it('every cycle goes through a reported one: two cycles sharing an operation', () => {
    const deps: Record<number, number[]> = { 0: [1, 2], 1: [0], 2: [0] };
    const g = buildGraph(syntheticProject(3, (i) => deps[i] ?? []));
    expect(join(findCycles(g))).toEqual(['r.o0 -> r.o1 -> r.o0', 'r.o0 -> r.o2 -> r.o0']);
  });

  it('a cycle through 10,000 operations needs no recursion', () => {
    const n = 10_000;
    const g = buildGraph(syntheticProject(n, (i) => [(i + 1) % n]));
    const cycles = findCycles(g);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(n + 1);
    expect(cycles[0][0]).toBe('r.o0');
    expect(cycles[0][n]).toBe('r.o0');
  });
});

describe('scheduleOrder', () => {
  it('puts prerequisites first, ties in declaration order', () => {
    // o0 needs o2; o1 needs nothing; o2 needs o3
    const deps: Record<number, number[]> = { 0: [2], 2: [3] };
    const g = buildGraph(syntheticProject(4, (i) => deps[i] ?? []));
    expect(scheduleOrder(g)).toEqual(['r.o1', 'r.o3', 'r.o2', 'r.o0']);
  });

  it('a ready DELETE waits until nothing else is ready', async () => {
    const g = await graphOf(`
resources:
  order:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/orders/{{order.id}}' }
      get: { path: '/orders/{{order.id}}' }
      archive: { method: POST, depends_on: [order.delete] }
  user:
    operations:
      list: {}
      purge: { method: DELETE }
`);
    expect(scheduleOrder(g)).toEqual(['order.create', 'order.get', 'user.list', 'order.delete', 'order.archive', 'user.purge']);
  });

  it('a DELETE of an instance waits for the DELETEs of what is nested in it, declared later or not', async () => {
    const g = await graphOf(`
resources:
  project:
    operations:
      create: { method: POST, path: /projects, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/projects/{{project.id}}' }
  feature:
    operations:
      create: { method: POST, path: '/projects/{{project.id}}/features', extract: { name: $.data.name } }
      delete: { method: DELETE, path: '/projects/{{project.id}}/features/{{feature.name}}' }
      purge: { method: DELETE, path: '/archive/{{feature.name}}' }
  user:
    operations:
      create: { method: POST, path: /users, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/users/{{user.id}}' }
  stage:
    operations:
      list: { path: /stages, extract: { name: '$.data[*].name' } }
  rule:
    operations:
      create: { method: POST, path: '/projects/{{project.id}}/features/{{feature.name}}/stages/{{stage.name}}/rules', extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/projects/{{project.id}}/features/{{feature.name}}/stages/{{stage.name}}/rules/{{rule.id}}' }
      clear: { method: DELETE, path: '/projects/{{project.id}}/features/{{feature.name}}/tags' }
`);
    // the rules' (nested in a feature and its project) and the tags', then the feature's two, then
    // its project's; the user's, nested in nothing and with nothing nested in it, among the first
    expect(scheduleOrder(g).slice(5)).toEqual(['user.delete', 'rule.delete', 'rule.clear', 'feature.delete', 'feature.purge', 'project.delete']);
  });

  it('a DELETE of an instance waits for the DELETEs of a resource whose writes name it in their body, as a foreign key would', async () => {
    const g = await graphOf(`
resources:
  segment:
    operations:
      create: { method: POST, path: /segments, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/segments/{{segment.id}}' }
  rule:
    operations:
      create: { method: POST, path: /rules, body: { segmentIds: ['{{segment.id}}'], name: r }, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/rules/{{rule.id}}' }
`);
    // declared first, the segment's DELETE still waits: the server refuses to remove a segment a rule uses
    expect(scheduleOrder(g)).toEqual(['segment.create', 'rule.create', 'rule.delete', 'segment.delete']);
  });

  it('nesting that goes round decides nothing: declaration order', async () => {
    const g = await graphOf(`
resources:
  a:
    operations:
      create: { method: POST, path: /a, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/b/{{b.id}}/a/{{a.id}}' }
  b:
    operations:
      create: { method: POST, path: /b, extract: { id: $.data.id } }
      delete: { method: DELETE, path: '/a/{{a.id}}/b/{{b.id}}' }
`);
    expect(scheduleOrder(g)).toEqual(['a.create', 'b.create', 'a.delete', 'b.delete']);
  });

  it('of given operations: them and their prerequisites only', async () => {
    const g = await graphOf(`
resources:
  order:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
      get: { path: '/orders/{{order.id}}' }
      other: {}
      delete: { method: DELETE, path: '/orders/{{order.id}}' }
`);
    expect(scheduleOrder(g, ['order.delete', 'order.get'])).toEqual(['order.create', 'order.get', 'order.delete']);
    expect(() => scheduleOrder(g, ['order.gett'])).toThrowError(
      expect.objectContaining({ code: 'E_REF_UNDEFINED', message: expect.stringContaining('did you mean order.get?') }),
    );
  });

  it('never stalls on a cycle and lists every operation once', () => {
    const deps: Record<number, number[]> = { 0: [1], 1: [0], 2: [1], 3: [] };
    const g = buildGraph(syntheticProject(4, (i) => deps[i] ?? []));
    const order = scheduleOrder(g);
    expect(order).toEqual(['r.o3', 'r.o0', 'r.o1', 'r.o2']);
  });

  it('orders 10,000 operations validly (each after its prerequisites)', () => {
    const n = 10_000;
    const deletes = new Set<number>();
    for (let i = 0; i < n; i += 10) deletes.add(i);
    const g = buildGraph(syntheticProject(n, (i) => (i === 0 ? [] : [...new Set([Math.floor((i - 1) / 2), Math.floor(pseudoRandom(i) * i)])]), deletes));
    const order = scheduleOrder(g);
    expect(new Set(order).size).toBe(n);
    const pos = new Map(order.map((id, i) => [id, i]));
    let misplaced = 0;
    for (let i = 0; i < n; i++) for (const d of g.needs[i]) if (pos.get(g.opIds[d])! > pos.get(g.opIds[i])!) misplaced++;
    expect(misplaced).toBe(0);
  });
});

describe('prerequisites', () => {
  it('is the closure in a valid order, without the operation itself', async () => {
    const g = await graphOf(`
actors:
  admin:
    auth: { strategy: simple, method: POST, path: /login, body: { org: '{{org.id}}' } }
resources:
  org:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
  order:
    operations:
      create: { method: POST, actor: admin, extract: { id: $.data.id } }
      pay: { method: POST, path: '/orders/{{order.id}}/pay', extract: { receipt: $.data.r } }
      unrelated: {}
      receipt: { path: '/receipts/{{order.receipt}}', depends_on: [order.create] }
`);
    expect(prerequisites(g, 'order.receipt')).toEqual(['org.create', 'order.create', 'order.pay']);
    expect(prerequisites(g, 'org.create')).toEqual([]);
  });

  it('terminates on a cycle, excluding the operation even when the cycle leads back to it', () => {
    const deps: Record<number, number[]> = { 0: [1], 1: [2], 2: [0] };
    const g = buildGraph(syntheticProject(3, (i) => deps[i] ?? []));
    expect(prerequisites(g, 'r.o0').sort()).toEqual(['r.o1', 'r.o2']);
    expect(() => prerequisites(g, 'r.nope')).toThrowError(expect.objectContaining({ code: 'E_REF_UNDEFINED' }));
  });
});
