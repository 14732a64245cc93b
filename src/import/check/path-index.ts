// Which input operations an emitted path matches, found through an index rather than by
// matching every emitted path against every input operation: that made an import quadratic in
// its requests (a Postman collection of 20k requests spent minutes here). A documented path
// must match the emitted shape exactly (a map by shape); a concrete path as sent matches
// segment by segment, `{}` standing for any one segment (a tree of segments, where a literal
// segment follows one branch and only a placeholder fans out).
import { escapeRegExp } from '../../project/index.js';
import type { ObservedOperation } from '../observed.js';
import { parsePath, shapeOf } from '../infer/paths.js';

interface Node {
  children: Map<string, Node>;
  /** concrete operations whose path ends here */
  ops: ObservedOperation[];
}

const newNode = (): Node => ({ children: new Map(), ops: [] });

export class PathIndex {
  readonly #byShape = new Map<string, ObservedOperation[]>();
  readonly #concrete = newNode();
  /** input order: matches are listed as the input lists them */
  readonly #order = new Map<ObservedOperation, number>();

  constructor(ops: ObservedOperation[]) {
    ops.forEach((op, i) => {
      this.#order.set(op, i);
      const shape = shapeOf(parsePath(op.path));
      const same = this.#byShape.get(shape);
      if (same) same.push(op);
      else this.#byShape.set(shape, [op]);
      if (!op.concrete) return;
      let node = this.#concrete;
      for (const seg of op.path.split('?')[0].split('/')) {
        let next = node.children.get(seg);
        if (!next) node.children.set(seg, (next = newNode()));
        node = next;
      }
      node.ops.push(op);
    });
  }

  /** The operations (of `method`, when given) whose path the emitted shape matches, in input order. */
  matching(emitted: string, method?: string): ObservedOperation[] {
    const found = new Set(this.#byShape.get(emitted) ?? []);
    const segments = emitted.split('/');
    // explicit stack: a path of many segments must not deepen the call stack
    const stack: Array<[Node, number]> = [[this.#concrete, 0]];
    while (stack.length) {
      const [node, i] = stack.pop()!;
      if (i === segments.length) {
        for (const op of node.ops) found.add(op);
        continue;
      }
      const s = segments[i];
      if (s === '{}') for (const child of node.children.values()) stack.push([child, i + 1]);
      else if (s.includes('{}')) {
        const re = new RegExp(`^${s.split('{}').map(escapeRegExp).join('.+')}$`);
        for (const [text, child] of node.children) if (text === s || re.test(text)) stack.push([child, i + 1]);
      } else {
        const child = node.children.get(s);
        if (child) stack.push([child, i + 1]);
      }
    }
    const out = method === undefined ? [...found] : [...found].filter((o) => o.method === method);
    return out.sort((a, b) => this.#order.get(a)! - this.#order.get(b)!);
  }
}
