// Evaluate a parsed assertion against a response. Never throws: an unreadable path (body
// not JSON, …) is a failed assertion carrying the error.
import { FlowError } from '../../errors.js';
import { compileRegex, isFanOutPath } from '../../graph/index.js';
import type { FlowResponse } from '../../http/index.js';
import { readPath } from '../extract/paths.js';
import { CUT_MARK } from '../../redact/index.js';
import { contains, looseEquals, matches, order } from './compare.js';
import type { AssertExpr, AssertOutcome, CompareOp } from './types.js';

type Check = (actual: unknown, expected: unknown, expr: AssertExpr) => boolean | string;

const ordered =
  (test: (n: number) => boolean): Check =>
  (actual, expected) => {
    const o = order(actual, expected);
    return o === undefined ? `cannot order ${describe(actual)} and ${describe(expected)}` : test(o);
  };

const CHECKS: Record<CompareOp, Check> = {
  '==': (a, e) => looseEquals(a, e),
  '!=': (a, e) => !looseEquals(a, e),
  '<': ordered((o) => o < 0),
  '<=': ordered((o) => o <= 0),
  '>': ordered((o) => o > 0),
  '>=': ordered((o) => o >= 0),
  contains: (a, e) => contains(a, e),
  matches: (a, e, expr) => {
    const re = expr.regex ?? (typeof e === 'string' ? compileRegex(e) : `matches needs a text pattern, got ${describe(e)}`);
    return typeof re === 'string' ? re : matches(a, re);
  },
};

/**
 * `rendered` is the value of a `{{…}}` literal, rendered by the caller (the runner owns
 * templates). A quoted literal with a reference inside is compared as text.
 */
export function evaluateAssert(expr: AssertExpr, res: FlowResponse, rendered?: unknown): AssertOutcome {
  let found: boolean;
  let values: unknown[];
  try {
    ({ found, values } = readPath(expr.path, res));
  } catch (err) {
    const e = err instanceof FlowError ? err : new FlowError('E_ASSERT_FAILED', String(err));
    return { pass: false, actual: undefined, message: `${expr.source}: ${e.message}`, reason: e.message, error: e };
  }
  const actual = !found ? undefined : isFanOutPath(expr.path) ? values : values[0];

  if (expr.op === 'exists') return outcome(expr, found, actual, undefined, found ? undefined : `nothing at ${expr.path}`);
  if (expr.op === 'not exists') return outcome(expr, !found, actual, undefined, undefined);

  const lit = expr.expected!;
  let expected: unknown;
  if (lit.kind === 'value') expected = lit.value;
  else if (rendered === undefined) return outcome(expr, false, actual, undefined, `the value ${lit.text} was not rendered`);
  else expected = lit.quoted ? String(rendered) : rendered;

  if (!found) return outcome(expr, false, actual, expected, `nothing at ${expr.path}`);
  const verdict = CHECKS[expr.op](actual, expected, expr);
  if (typeof verdict === 'string') return outcome(expr, false, actual, expected, verdict);
  return outcome(expr, verdict, actual, expected, undefined);
}

/**
 * On failure the message says the expression once, then the reason, or what was expected and
 * the actual value when that is all there is to say:
 * `$.tags contains 'x' failed: expected to contain "x", actual []`.
 */
function outcome(expr: AssertExpr, pass: boolean, actual: unknown, expected: unknown, why: string | undefined): AssertOutcome {
  const expectation = pass || why ? undefined : expectationOf(expr, expected);
  const message = pass ? expr.source : why ? `${expr.source} failed: ${why}` : `${expr.source} failed: expected ${expectation}, actual ${describe(actual)}`;
  const out: AssertOutcome = { pass, actual, message };
  if (expected !== undefined) out.expected = expected;
  if (expectation !== undefined) out.expectation = expectation;
  if (!pass && why) out.reason = why;
  return out;
}

/** What the assert wanted, in the words of its operator: `"draft"`, `not 3`, `> 100`, `to contain "x"`, `nothing`. */
function expectationOf(expr: AssertExpr, expected: unknown): string {
  switch (expr.op) {
    case '==':
      return describe(expected);
    case '!=':
      return `not ${describe(expected)}`;
    case 'contains':
      return `to contain ${describe(expected)}`;
    case 'matches':
      return `to match ${expr.regex ? String(expr.regex) : describe(expected)}`;
    case 'not exists':
      return 'nothing';
    case 'exists':
      return 'a value';
    default:
      return `${expr.op} ${describe(expected)}`;
  }
}

/** A short display of a value (JSON, at most 200 characters). */
function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  // CUT_MARK: the redactor hides a secret's start before it (the message is redacted later)
  return text.length > 200 ? `${text.slice(0, 200)}${CUT_MARK}` : text;
}
