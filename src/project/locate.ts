// file:line:col for any node of a loaded project, from the kept YAML documents.
import { isMap, isPair, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Loc, Project, SourceFile, YamlPath } from './types.js';

const indexes = new WeakMap<Project, Map<string, SourceFile>>();

/** The loaded file at `file` (indexed once per project). */
export function sourceOf(project: Project, file: string): SourceFile | undefined {
  let index = indexes.get(project);
  if (!index || index.size !== project.files.length) {
    index = new Map(project.files.map((f) => [f.path, f]));
    indexes.set(project, index);
  }
  return index.get(file);
}

/**
 * The position of the node at `yamlPath` in `file` (of its key with `atKey`). When the path
 * does not exist, the deepest existing ancestor; when the file has no document, line 1.
 */
export function locate(project: Project, file: string, yamlPath: YamlPath, atKey = false): Loc {
  const source = sourceOf(project, file);
  return source ? locateIn(source, yamlPath, atKey) : { file, line: 1, col: 1 };
}

export function locateIn(source: SourceFile, yamlPath: YamlPath, atKey = false): Loc {
  const { doc, lineCounter } = source;
  const fallback = { file: source.path, line: 1, col: 1 };
  if (!doc || !lineCounter) return fallback;
  let node: unknown = doc.contents;
  let lastRange: [number, number, number] | undefined = rangeOf(node);
  for (let i = 0; i < yamlPath.length; i++) {
    const seg = yamlPath[i];
    const last = i === yamlPath.length - 1;
    if (isMap(node)) {
      const pair = pairOf(node, String(seg));
      if (!pair) break;
      if (last && atKey) {
        lastRange = rangeOf(pair.key) ?? lastRange;
        node = undefined;
        break;
      }
      lastRange = rangeOf(pair.value) ?? rangeOf(pair.key) ?? lastRange;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      lastRange = rangeOf(item) ?? lastRange;
      node = item;
    } else {
      break;
    }
  }
  if (!lastRange) return fallback;
  const pos = lineCounter.linePos(lastRange[0]);
  return { file: source.path, line: pos.line, col: pos.col };
}

// Large maps (a resource with thousands of operations) get a key index, so locating every
// operation stays linear overall.
const keyIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  if (map.items.length < 16) return map.items.find((p) => keyOf(p) === key);
  let index = keyIndexes.get(map);
  if (!index) {
    index = new Map();
    for (const p of map.items) {
      const k = keyOf(p);
      if (k !== undefined && !index.has(k)) index.set(k, p);
    }
    keyIndexes.set(map, index);
  }
  return index.get(key);
}

function keyOf(pair: Pair): string | undefined {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return typeof k === 'string' ? k : undefined;
}

function rangeOf(node: unknown): [number, number, number] | undefined {
  if (isPair(node)) return undefined;
  const r = (node as Node | undefined)?.range;
  return r ?? undefined;
}
