// The walk the secret rules share (src/lint/walk.ts): every node once, in document order, with
// its path; skipped keys unvisited; no recursion, so depth is no danger.
import { expect, test } from 'vitest';
import { pathOf, walkValue } from '../../src/lint/walk.js';

function visited(root: unknown, skip?: ReadonlySet<string>): Array<[unknown, unknown[], boolean]> {
  const out: Array<[unknown, unknown[], boolean]> = [];
  walkValue(root, (node, place) => out.push([typeof node === 'object' ? '·' : node, [...pathOf(place)], place?.inMap ?? false]), skip);
  return out;
}

test('every node once, in document order, with its path and whether its key is a map key', () => {
  expect(visited({ a: 1, b: [2, { c: 3 }], d: { e: 'x' } })).toEqual([
    ['·', [], false],
    [1, ['a'], true],
    ['·', ['b'], true],
    [2, ['b', 0], false],
    ['·', ['b', 1], false],
    [3, ['b', 1, 'c'], true],
    ['·', ['d'], true],
    ['x', ['d', 'e'], true],
  ]);
});

test('a skipped key is not visited, nor anything below it, at any depth', () => {
  const paths = visited({ extract: { token: 't' }, ops: [{ extract: 'p', password: 'pw' }] }, new Set(['extract'])).map(([, p]) => p.join('.'));
  expect(paths).toEqual(['', 'ops', 'ops.0', 'ops.0.password']);
});

test('each path is its own array', () => {
  const kept: unknown[][] = [];
  walkValue({ a: { b: 1 }, c: 2 }, (_node, place) => kept.push(pathOf(place) as unknown[]));
  expect(kept).toEqual([[], ['a'], ['a', 'b'], ['c']]);
});

test('100,000 levels deep: no stack overflow', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 100_000; i++) deep = { k: deep };
  let leafDepth = -1;
  walkValue(deep, (node, place) => {
    if (node === 'leaf') leafDepth = pathOf(place).length;
  });
  expect(leafDepth).toBe(100_000);
});
