// post_response hook of report.result: a check YAML asserts cannot say, that the report's
// rows add up to its total. It runs in a worker, away from the runner: it sees the response
// (`ctx.response.json`) and the report's values so far (`ctx.vars`). Throwing fails the
// operation with E_HOOK; returning { extract } stores values on the report like extractions.
export default function checkReportTotal(ctx) {
  const { status, rows, total } = ctx.response.json;
  if (status !== 'done') return undefined; // a poll attempt: the report is not there yet
  const sum = rows.reduce((acc, row) => acc + row.amount, 0);
  if (Math.abs(sum - total) > 1e-9) throw new Error(`report ${ctx.vars.id}: rows add up to ${sum}, total says ${total}`);
  return { extract: { row_count: rows.length } };
}
