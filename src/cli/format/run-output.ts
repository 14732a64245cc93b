// What `flow run` prints: pure functions of run events and results (already redacted).
import { displayLoc, type Loc } from '../../project/index.js';
import { emptyListHint, failureDetails } from '../../report/index.js';
import type { ErrorRecord, OperationResult, RequestRecord, ResponseRecord, RunEvent, RunSummary } from '../../runner/index.js';

export interface RunFormatOptions {
  cwd: string;
  verbose: boolean;
  color: boolean;
  /** a failure is its code and line only: no asserts, request or response under it */
  quiet?: boolean;
}

const paint = (on: boolean, code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

export function formatLoc(loc: Loc | undefined, cwd: string): string {
  return loc ? displayLoc(loc, cwd) : '';
}

/**
 * One line per HTTP exchange as it happens: method, URL, status, ms, what it served (the
 * operation, the login or poll it was part of, and what the operation is a prerequisite of).
 */
export function formatEvent(event: RunEvent, o: RunFormatOptions, prerequisiteOf: string[] = []): string {
  if (event.type !== 'request') return '';
  const { request, response, error } = event;
  const status = response ? statusText(response.status, o) : paint(o.color, 31)(error?.code ?? 'ERROR');
  const ms = response ? `${response.ms} ms` : '';
  const via = prerequisiteOf.length ? ` (prerequisite of ${prerequisiteOf.join(', ')})` : '';
  const purpose = (event.purpose === event.operation ? event.operation : `${event.operation}: ${event.purpose}`) + via;
  let line = `  ${request.method.padEnd(6)} ${request.url}  ${status}  ${ms}  ${paint(o.color, 2)(purpose)}\n`;
  if (o.verbose) line += verbose(request, response);
  return line;
}

function statusText(status: number, o: RunFormatOptions): string {
  const color = status < 300 ? 32 : status < 400 ? 36 : 31;
  return paint(o.color, color)(String(status));
}

function verbose(request: RequestRecord, response?: ResponseRecord): string {
  const lines = [...Object.entries(request.headers).map(([k, v]) => `    > ${k}: ${v}`)];
  if (request.body) lines.push(`    > ${request.body.replace(/\n/g, '\n    > ')}`);
  if (response) {
    for (const [k, v] of Object.entries(response.headers)) lines.push(`    < ${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
    if (response.body) lines.push(`    < ${response.body.replace(/\n/g, '\n    < ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The end of an operation: a mark, and for a failure the coded error with file:line. */
export function formatResult(r: OperationResult, o: RunFormatOptions): string {
  const via = r.prerequisiteOf.length ? paint(o.color, 2)(` (prerequisite of ${r.prerequisiteOf.join(', ')})`) : '';
  if (r.status === 'skipped') return `${paint(o.color, 33)('-')} ${r.operation}${via}  skipped: ${r.skippedBecause}\n`;
  const logs = o.verbose ? hookLogLines(r) : '';
  if (r.status === 'passed') return `${paint(o.color, 32)('✔')} ${r.operation}${via}  ${r.ms} ms\n${logs}`;
  const hint = emptyListHint(r);
  return `${paint(o.color, 31)('✖')} ${r.operation}${via}\n${logs}${formatError(r.error, o)}${hint ? `    hint: ${hint}\n` : ''}${o.quiet ? '' : details(r, o)}`;
}

/**
 * What the failure's test shows under Vitest too: the failed asserts, and the last request and
 * response (redacted by the runner, bodies capped). --verbose printed the exchange already.
 */
function details(r: OperationResult, o: RunFormatOptions): string {
  return failureDetails(r, { exchange: !o.verbose, cwd: o.cwd })
    .map((l) => `  ${l}\n`)
    .join('');
}

/** What the operation's hooks printed (--verbose), one line each under the result. */
function hookLogLines(r: OperationResult): string {
  let out = '';
  for (const log of r.hookLogs ?? []) {
    for (const line of log.lines) out += `    ${log.hook} hook: ${line.replace(/\n/g, '\n      ')}\n`;
  }
  return out;
}

function formatError(e: ErrorRecord | undefined, o: RunFormatOptions): string {
  if (!e) return '';
  const where = formatLoc(e.loc, o.cwd);
  return `    ${where ? `${where}  ` : ''}${paint(o.color, 31)(e.code)}  ${e.message}\n`;
}

/** The counts, and the failures again (in a long run they scrolled away): operation, code, where. */
export function formatSummary(s: RunSummary, o: RunFormatOptions, failures: OperationResult[] = []): string {
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.skipped) parts.push(`${s.skipped} skipped`);
  const text = `${parts.join(', ')} (${s.ms} ms)`;
  const list = failures
    .map((r) => `  ${paint(o.color, 31)('✖')} ${r.operation}  ${r.error?.code ?? 'E_FAILED'}  ${formatLoc(r.error?.loc ?? r.loc, o.cwd)}\n`)
    .join('');
  return `\n${list ? `Failed:\n${list}` : ''}${s.failed || s.skipped ? paint(o.color, 31)(text) : paint(o.color, 32)(text)}\n`;
}
