// A walk over a file's loaded value for the rules that look at every node. Iterative, so a
// deeply nested body cannot exhaust the stack; a node's path is built only when a rule reports
// it (a path per node was most of what these rules cost on a large project).
import { isRawMap, type YamlPath } from '../project/index.js';

/** Where a node sits: its key in its parent (a map's key or a list's index), and the parent's place. */
export interface Place {
  key: string | number;
  /** the key is a map's (not a list's index) */
  inMap: boolean;
  up: Place | undefined;
}

/** The path from the file's top to `place` (the top itself: []). */
export function pathOf(place: Place | undefined): YamlPath {
  const path: Array<string | number> = [];
  for (let p = place; p; p = p.up) path.push(p.key);
  return path.reverse();
}

/**
 * Calls `visit` with every node under `root` (root included) and its place. The entries of a
 * map whose key `skip` names are not visited, nor anything below them.
 */
export function walkValue(root: unknown, visit: (node: unknown, place: Place | undefined) => void, skip?: ReadonlySet<string>): void {
  const stack: Array<[unknown, Place | undefined]> = [[root, undefined]];
  while (stack.length) {
    const [node, place] = stack.pop()!;
    visit(node, place);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], { key: i, inMap: false, up: place }]);
    } else if (isRawMap(node)) {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        if (!skip?.has(keys[i])) stack.push([node[keys[i]], { key: keys[i], inMap: true, up: place }]);
      }
    }
  }
}
