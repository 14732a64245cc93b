// The parsed form of an assertion is defined with its parser in src/graph (lint checks the
// syntax); the outcome of evaluating one against a response is the runtime's.
export type { AssertExpr, CompareOp } from '../../graph/index.js';

export interface AssertOutcome {
  pass: boolean;
  /** what the path gave: its value, the list of values for a `[*]` path, undefined if nothing */
  actual: unknown;
  expected?: unknown;
  /** on a failure with a value to compare: what was expected, as a user reads it (`"draft"`, `> 100`, `to contain "x"`) */
  expectation?: string;
  /** one line: the expression, and on failure the actual value */
  message: string;
  /** on a failure, why, when the actual value does not say it all (the message holds it too) */
  reason?: string;
  /** set when the path could not be read at all (E_NOT_JSON, E_BODY_TRUNCATED, …) */
  error?: import('../../errors.js').FlowError;
}
