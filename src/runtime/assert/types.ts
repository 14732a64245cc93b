// The assert grammar of DESIGN.md: `<path> <op> <literal>`, `<path> exists`, `<path> not exists`.
export const COMPARE_OPS = ['==', '!=', '<', '<=', '>', '>=', 'contains', 'matches'] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export type AssertOp = CompareOp | 'exists' | 'not exists';

export type AssertLiteral =
  | { kind: 'value'; value: string | number | boolean | null }
  /** `{{…}}`, or a quoted string holding one: the caller renders `text` and passes the value */
  | { kind: 'template'; text: string; quoted: boolean };

export interface AssertExpr {
  /** the expression as written */
  source: string;
  path: string;
  op: AssertOp;
  /** absent for exists / not exists */
  expected?: AssertLiteral;
  /** for `matches` with a literal pattern: compiled once at parse time */
  regex?: RegExp;
}

export interface AssertOutcome {
  pass: boolean;
  /** what the path gave: its value, the list of values for a `[*]` path, undefined if nothing */
  actual: unknown;
  expected?: unknown;
  /** one line: the expression, and on failure the actual value */
  message: string;
  /** set when the path could not be read at all (E_NOT_JSON, E_BODY_TRUNCATED, …) */
  error?: import('../../errors.js').FlowError;
}
