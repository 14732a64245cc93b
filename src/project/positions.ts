// Source positions as plain data: every node's line and column, indexed by its YAML path, so
// that any node can be located without the YAML document. It is what the parse cache keeps in
// place of the document (a document cannot be stored; parsing it again is what the cache saves).
import type { Document, LineCounter, Node } from 'yaml';
import { yamlLib } from './lazy.js';
import type { YamlPath } from './types.js';

/**
 * A node's position: `[line, col]`, then for a mapping an object of its keys, each
 * `[keyLine, keyCol, value]`, or for a sequence an array of its items. A value of `null` has
 * no position of its own (`? key` with nothing after it); a key that is not a scalar is not
 * indexed (nothing can name it in a path).
 */
export type PosNode =
  | readonly [line: number, col: number]
  | readonly [line: number, col: number, children: { readonly [key: string]: PosEntry }]
  | readonly [line: number, col: number, items: ReadonlyArray<PosNode | null>];
type PosEntry = readonly [keyLine: number, keyCol: number, value: PosNode | null];

/** The index of a parsed document; undefined when it has no contents. */
export function indexPositions(doc: Document.Parsed, lineCounter: LineCounter): PosNode | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  const at = (node: unknown): [number, number] | undefined => {
    if (isPair(node)) return undefined;
    const r = (node as Node | undefined)?.range;
    if (!r) return undefined;
    const p = lineCounter.linePos(r[0]);
    return [p.line, p.col];
  };
  // Depth is bounded by the parser: a document nested deeper than the yaml library takes (a
  // few hundred levels) ends in its RangeError and parseYaml keeps an empty one. Documents
  // deeper than MAX_DEPTH are refused by the loader but still indexed here, so plain
  // recursion is safe only because this walk needs less stack per level than the parser.
  const walk = (node: unknown): PosNode | null => {
    const pos = at(node);
    if (!pos) return null;
    if (isMap(node)) {
      const children: Record<string, PosEntry> = {};
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : typeof pair.key === 'string' ? pair.key : undefined;
        if (key === undefined || Object.hasOwn(children, key)) continue; // the first of two equal keys, as locate did
        const keyPos = at(pair.key) ?? pos;
        // A `__proto__` key must stay an own key, never the prototype.
        Object.defineProperty(children, key, { value: [keyPos[0], keyPos[1], walk(pair.value)], enumerable: true, writable: true, configurable: true });
      }
      return [pos[0], pos[1], children];
    }
    if (isSeq(node)) return [pos[0], pos[1], node.items.map(walk)];
    return pos;
  };
  return walk(doc.contents) ?? undefined;
}

/**
 * The position of the node at `yamlPath` (of its key with `atKey`). When the path does not
 * exist, the deepest existing ancestor's.
 */
export function positionAt(root: PosNode, yamlPath: YamlPath, atKey: boolean): { line: number; col: number } {
  let node: PosNode | null = root;
  let last: readonly [number, number] = [root[0], root[1]];
  for (let i = 0; i < yamlPath.length && node; i++) {
    const seg = yamlPath[i];
    const inner: PosNode[2] = node[2];
    if (inner === undefined) break;
    if (Array.isArray(inner)) {
      if (typeof seg !== 'number') break;
      const item: PosNode | null | undefined = (inner as ReadonlyArray<PosNode | null>)[seg];
      if (item === undefined) break;
      if (item) last = [item[0], item[1]];
      node = item;
      continue;
    }
    const children = inner as { readonly [key: string]: PosEntry };
    const key = String(seg);
    if (!Object.hasOwn(children, key)) break;
    const [keyLine, keyCol, value] = children[key];
    if (i === yamlPath.length - 1 && atKey) return { line: keyLine, col: keyCol };
    last = value ? [value[0], value[1]] : [keyLine, keyCol];
    node = value;
  }
  return { line: last[0], col: last[1] };
}
