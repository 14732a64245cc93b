// Assertions: `<path> <op> <literal>` (docs/format.md#assert-grammar), parsed once and evaluated per response.
// Parsed in src/graph (pure, so lint checks the same syntax); evaluated here.
export { parseAssert, checkAssert } from '../../graph/index.js';
export { evaluateAssert } from './evaluate.js';
