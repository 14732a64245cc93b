// Every lint rule, one module each. Order here is the order of the output for one position.
import type { Rule } from '../rule.js';

export const RULES: Rule[] = [
  // (structural rules: schema, version, unknown keys, … )
  // (graph rules: references, cycles, fields not extracted)
];
