// The checks after a response, in Hurl's order: expect_status (stop if it fails), extract,
// then assert. Each failure is a coded error with the facts a user needs to fix it.
import { FlowError, withLoc } from '../errors.js';
import type { ExtractSpec, Loc, Operation } from '../project/index.js';
import { evaluateAssert, extractAll, parseAssert, render, type RenderContext } from '../runtime/index.js';
import type { Redactor } from '../redact/index.js';
import type { FlowResponse } from '../http/index.js';
import type { AssertRecord, ResultWarning } from './types.js';
import type { RunContext, Trace } from './context.js';
import { redactedExcerpt } from './records.js';

/** Without expect_status, any 2xx passes. `at`: where a mismatch is (the `expect_status` line), asked only on failure. */
export function checkStatus(res: FlowResponse, expected: number[] | undefined, redactor: Redactor, at?: () => Loc | undefined): void {
  const ok = expected ? expected.includes(res.status) : res.status >= 200 && res.status < 300;
  if (ok) return;
  const want = expected ? (expected.length === 1 ? String(expected[0]) : `one of ${expected.join(', ')}`) : 'a 2xx status';
  const body = redactedExcerpt(redactor, res.text(), 300, 0, res.truncated);
  throw new FlowError('E_STATUS_MISMATCH', `expected ${want}, got ${res.status}${body ? `: ${body}` : ''}`, {
    details: { expected: expected ?? '2xx', actual: res.status, body },
    loc: at?.(),
  });
}

/**
 * The run's responseCheck (a contract): what it throws is returned, to fail the operation
 * once the rest of its checks have run; the warnings it returns go on its result.
 */
export function checkResponse(ctx: RunContext, op: Operation, res: FlowResponse, trace: Trace): { error: unknown } | undefined {
  let warnings: ResultWarning[] | undefined;
  try {
    warnings = ctx.options.responseCheck!({ operation: op.id, method: op.method, url: res.url, response: res, redact: (v) => ctx.redactor.value(v) });
  } catch (error) {
    return { error };
  }
  if (warnings?.length) (trace.warnings ??= []).push(...warnings.map((w) => ({ code: w.code, message: ctx.redactor.text(w.message) })));
  return undefined;
}

export function extract(specs: ExtractSpec[], res: FlowResponse): { scalars: Record<string, unknown>; many: Record<string, unknown[]> } {
  if (!specs.length) return { scalars: {}, many: {} };
  const out = extractAll(specs, res);
  if (out.errors.length) throw out.errors[0];
  return { scalars: out.values, many: out.many };
}

/**
 * Every assertion is evaluated and reported, each record with the assert's position; the
 * first failure is the operation's error, at that position. It is returned, not thrown, so
 * that the records of the passing and failing asserts reach the result.
 */
export function checkAsserts(op: Pick<Operation, 'assert' | 'assertLocs' | 'loc'>, res: FlowResponse, rc: RenderContext, redactor: Redactor): AssertOutcome {
  const out: AssertOutcome = { records: [] };
  op.assert.forEach((expr, i) => {
    const { record, error } = evaluateOne(expr, res, rc, redactor);
    record.loc = op.assertLocs[i] ?? op.loc;
    out.records.push(record);
    if (!record.pass && !out.error) {
      out.error = withLoc(
        error ?? new FlowError('E_ASSERT_FAILED', record.message ?? `${record.expr} failed`, { details: { expr: record.expr, actual: record.actual } }),
        record.loc,
      );
    }
  });
  return out;
}

interface AssertOutcome {
  records: AssertRecord[];
  /** the first failure, at its assert's position */
  error?: FlowError;
}

/** One assertion; `error` is set when the path could not be read at all (E_NOT_JSON, …). */
export function evaluateOne(expr: string, res: FlowResponse, rc: RenderContext, redactor: Redactor): { record: AssertRecord; error?: FlowError } {
  const ast = parseAssert(expr); // cached by expression text in the assert module
  const rendered = ast.expected?.kind === 'template' ? render(ast.expected.text, rc) : undefined;
  const outcome = evaluateAssert(ast, res, rendered);
  const shown = redactor.text(expr);
  const record: AssertRecord = {
    expr: shown,
    pass: outcome.pass,
    actual: redactor.value(outcome.actual),
    // a passing assert's message is its expression
    message: outcome.message === expr ? shown : redactor.text(outcome.message),
  };
  if (outcome.expectation !== undefined) record.expected = redactor.text(outcome.expectation);
  if (outcome.reason) record.reason = redactor.text(outcome.reason);
  return { record, error: outcome.error };
}
