// Assertions: `<path> <op> <literal>` (DESIGN.md), parsed once and evaluated per response.
// Parsed in src/graph (pure, so lint checks the same syntax); evaluated here.
export { parseAssert, checkAssert } from '../../graph/assert-syntax.js';
export { evaluateAssert } from './evaluate.js';
export { order, contains, matches } from './compare.js';
export type { AssertOutcome } from './types.js';
