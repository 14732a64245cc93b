// How a failed result reads, for every reporter: the coded error, where in the YAML, the failed
// asserts and the last exchange. Everything comes from an OperationResult, which the runner has
// already redacted; this module only lays it out. The Vitest failure message and the CLI's
// JUnit and Markdown reports share it, so a failure reads the same everywhere.
import { displayLoc, type Loc } from '../project/index.js';
import { emptyListOf, type AssertRecord, type OperationResult, type RequestRecord, type ResponseRecord } from '../runner/index.js';

const BODY_LINES = 20;
const BODY_CHARS = 2_000;
/** Response headers that say nothing about why an operation failed. */
const QUIET_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** `file:line:col` relative to `cwd` (the project stage's one rule). */
export function where(loc: Loc, cwd: string): string {
  return displayLoc(loc, cwd);
}

export function errorText(result: OperationResult): string {
  return result.error?.message ?? `${result.operation} failed`;
}

/** @param text the first line after the code: the result's own error unless given */
export function failureMessage(result: OperationResult, cwd: string, text: string = errorText(result)): string {
  const loc = result.error?.loc ?? result.loc;
  const code = result.error?.code ?? 'E_FAILED';
  const lines = [`${code}: ${text}`, `  at ${where(loc, cwd)} (${result.operation})`];
  const hint = emptyListHint(result) ?? calibrateHint(result);
  if (hint) lines.push(`  hint: ${hint}`);
  lines.push(...failureDetails(result, { cwd }));
  return lines.join('\n');
}

/**
 * Under a failure's first line: the failed asserts, then the last request and response (bodies
 * capped). The Vitest failure and `flow run` both show them, indented two spaces.
 */
export function failureDetails(result: OperationResult, { exchange = true, cwd }: { exchange?: boolean; cwd?: string } = {}): string[] {
  const lines: string[] = [];
  const loc = result.error?.loc ?? result.loc;
  const failed = result.asserts.filter((a) => !a.pass);
  if (failed.length) {
    lines.push('  assert:');
    // an assert's own line when the `at` line above does not already point at it
    for (const a of failed) lines.push(`    ✗ ${assertLine(a)}${a.loc && cwd !== undefined && !sameLine(a.loc, loc) ? `  (at ${where(a.loc, cwd)})` : ''}`);
  }
  const last = exchange ? result.exchanges.at(-1) : undefined;
  if (last) {
    const count = result.exchanges.length;
    lines.push(`  request${count > 1 ? ` (${last.purpose}, last of ${count})` : ''}:`, ...requestLines(last.request));
    lines.push('  response:', ...(last.response ? responseLines(last.response) : ['    (none)']));
  }
  return lines;
}

function sameLine(a: Loc, b: Loc): boolean {
  return a.file === b.file && a.line === b.line;
}

/**
 * A value the list that extracts it was to give, and the list found no item (the runner's
 * details): the `depends_on` that would run a create of its resource first, when one would.
 */
export function emptyListHint(result: OperationResult): string | undefined {
  const e = emptyListOf(result);
  if (!e) return undefined;
  const found = `the list found nothing: ${e.producer} (\`${e.path}\`) listed no item`;
  const [create] = e.creates;
  if (create)
    return `${found}, and nothing makes it run after a create of ${e.scope}. \`depends_on: [${create}]\` on ${e.producer} runs ${create} first (\`flow calibrate ${result.operation} --writes\` tries it and proposes it)`;
  if (e.after.length) return `${found}, even after ${e.after.join(', ')}: what it lists is not what the create made`;
  return `${found}, and the project has no create of ${e.scope}: nothing was there to list`;
}

/**
 * For a failure `flow calibrate` can prove a fix for (a status the server answers otherwise,
 * 401/403 included: an actor or its header form; an extraction that found nothing), the
 * command that shows the proof. Not for 5xx (proves nothing) nor 400/422 (an open question).
 */
function calibrateHint(result: OperationResult): string | undefined {
  const e = result.error;
  if (!e) return undefined;
  const actual = Number(e.details?.actual);
  const status = e.code === 'E_STATUS_MISMATCH' && actual < 500 && actual !== 400 && actual !== 422;
  const extraction = e.code === 'E_EXTRACT_FAILED' && typeof e.details?.path === 'string';
  if (!status && !extraction) return undefined;
  const method = result.exchanges.filter((x) => x.purpose === result.operation).at(-1)?.request.method ?? 'GET';
  const flags = ['GET', 'HEAD', 'OPTIONS'].includes(method) ? '' : method === 'DELETE' ? ' --writes --destructive' : ' --writes';
  return `run \`flow calibrate ${result.operation}${flags}\` to see the proof`;
}

/**
 * A failed assert: the expression, then what was expected and the actual value, or the reason
 * when the runtime gives one (`nothing at $.x`, `cannot order …`).
 */
export function assertLine(a: AssertRecord): string {
  if (a.expected !== undefined && !a.reason) return `${a.expr}: expected ${a.expected}, actual ${a.actual === undefined ? 'nothing' : brief(a.actual)}`;
  const actual = a.actual === undefined ? '' : ` (actual: ${brief(a.actual)})`;
  return `${a.expr}${actual}${a.reason ? `: ${a.reason}` : ''}`;
}

function requestLines(req: RequestRecord): string[] {
  const out = [`    ${req.method} ${req.url}`];
  for (const [k, v] of Object.entries(req.headers)) out.push(`    ${k}: ${v}`);
  if (req.body) out.push(...bodyLines(req.body));
  return out;
}

function responseLines(res: ResponseRecord): string[] {
  const out = [`    ${res.status} (${Math.round(res.ms)} ms)`];
  for (const [k, v] of Object.entries(res.headers)) {
    if (!QUIET_HEADERS.has(k.toLowerCase())) out.push(`    ${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
  }
  if (res.body) out.push(...bodyLines(res.body));
  return out;
}

function bodyLines(body: string): string[] {
  // a minified body is one line: cut by characters too
  const text = body.length > BODY_CHARS ? body.slice(0, BODY_CHARS) : body;
  const lines = text.split('\n');
  const shown = lines.slice(0, BODY_LINES).map((l) => `    ${l}`);
  if (lines.length > BODY_LINES) shown.push(`    … ${lines.length - BODY_LINES} more lines`);
  else if (text !== body) shown.push(`    … ${body.length - BODY_CHARS} more characters`);
  return shown;
}

function brief(value: unknown): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
