// What a failing flow test says: the coded error, where in the YAML, the failed asserts and
// the last exchange. Everything here comes from an OperationResult, which the runner has
// already redacted; this module only lays it out.
import path from 'node:path';
import type { Diagnostic, Loc, Project } from '../project/types.js';
import type { AssertRecord, OperationResult, RequestRecord, ResponseRecord } from '../runtime/types.js';

/** Thrown by a failing flow test. `code` is the runner's error code (E_STATUS_MISMATCH, …). */
export class FlowTestError extends Error {
  declare readonly code: string;
  declare readonly loc?: Loc;

  constructor(code: string, message: string, loc?: Loc, operation?: string) {
    super(message);
    this.name = 'FlowError';
    // Not enumerable: Vitest's terminal reporters print enumerable fields of an error as
    // "Serialized Error" under the message, which already says both. (Its JUnit reporter
    // prints them anyway: the worker copies every own property when it sends the error.)
    Object.defineProperty(this, 'code', { value: code, enumerable: false });
    Object.defineProperty(this, 'loc', { value: loc, enumerable: false });
    // A stack that points at the YAML: Vitest prints the code frame of the first frame.
    if (loc) this.stack = `${this.name}: ${message}\n    at ${operation ?? 'flow'} (${loc.file}:${loc.line}:${loc.col})`;
  }
}

const BODY_LINES = 20;
/** Response headers that say nothing about why an operation failed. */
const QUIET_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function where(loc: Loc, cwd: string): string {
  return `${displayPath(loc.file, cwd)}:${loc.line}:${loc.col}`;
}

export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel && !path.isAbsolute(rel) ? rel : file;
}

/** The error a failed result becomes. */
export function failureError(result: OperationResult, cwd: string = process.cwd()): FlowTestError {
  const loc = result.error?.loc ?? result.loc;
  const code = result.error?.code ?? 'E_FAILED';
  return new FlowTestError(code, failureMessage(result, cwd), loc, result.operation);
}

/** `operation` could not run because `prerequisite` failed, and no other test shows why. */
export function prerequisiteFailure(operation: string, prerequisite: OperationResult, cwd: string = process.cwd()): FlowTestError {
  const loc = prerequisite.error?.loc ?? prerequisite.loc;
  const code = prerequisite.error?.code ?? 'E_FAILED';
  const cause = `${operation} did not run: its prerequisite ${prerequisite.operation} failed (no test here shows it): ${errorText(prerequisite)}`;
  return new FlowTestError(code, failureMessage(prerequisite, cwd, cause), loc, prerequisite.operation);
}

function errorText(result: OperationResult): string {
  return result.error?.message ?? `${result.operation} failed`;
}

/** @param text the first line after the code: the result's own error unless given */
export function failureMessage(result: OperationResult, cwd: string, text: string = errorText(result)): string {
  const loc = result.error?.loc ?? result.loc;
  const code = result.error?.code ?? 'E_FAILED';
  const lines = [`${code}: ${text}`, `  at ${where(loc, cwd)} (${result.operation})`];
  const hint = calibrateHint(result);
  if (hint) lines.push(`  hint: ${hint}`);
  const failed = result.asserts.filter((a) => !a.pass);
  if (failed.length) {
    lines.push('  assert:');
    for (const a of failed) lines.push(`    ✗ ${assertLine(a)}`);
  }
  const last = result.exchanges.at(-1);
  if (last) {
    const count = result.exchanges.length;
    lines.push(`  request${count > 1 ? ` (${last.purpose}, last of ${count})` : ''}:`, ...requestLines(last.request));
    lines.push('  response:', ...(last.response ? responseLines(last.response) : ['    (none)']));
  }
  return lines.join('\n');
}

/**
 * For a failure `flow calibrate` can prove a fix for (a status the server answers otherwise,
 * 401/403 included: an actor or its header form; an extraction that found nothing), the
 * command that shows the proof. Not for 5xx (proves nothing) nor 400/422 (an open question).
 */
export function calibrateHint(result: OperationResult): string | undefined {
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
 * A failed assert: the expression, the actual value, and the reason when the runtime gives
 * one (`nothing at $.x`, `cannot order …`).
 */
export function assertLine(a: AssertRecord): string {
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
  const lines = body.split('\n');
  const shown = lines.slice(0, BODY_LINES).map((l) => `    ${l}`);
  if (lines.length > BODY_LINES) shown.push(`    … ${lines.length - BODY_LINES} more lines`);
  return shown;
}

function brief(value: unknown): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** The message of the one `lint` test of a project with errors. */
export function lintMessage(errors: Diagnostic[], cwd: string): string {
  const lines = [`E_LINT: ${errors.length} lint error${errors.length === 1 ? '' : 's'}`];
  for (const d of errors) lines.push(`  ${where(d, cwd)}  ${d.code}  ${d.message}`);
  return lines.join('\n');
}

export function lintError(errors: Diagnostic[], cwd: string = process.cwd()): FlowTestError {
  const first = errors[0];
  const loc = first && { file: first.file, line: first.line, col: first.col };
  return new FlowTestError(first?.code ?? 'E_LINT', lintMessage(errors, cwd), loc, 'lint');
}

/**
 * The one failing test of a project that lacks the environment asked for (`env` and FLOW_ENV
 * apply to every project), found before any request; undefined when there is nothing to say.
 */
export function environmentError(project: Pick<Project, 'rootFile' | 'environments'>, env: string | undefined, cwd: string = process.cwd()): FlowTestError | undefined {
  if (!env || project.environments.has(env)) return undefined;
  const known = [...project.environments.keys()].join(', ') || 'none';
  const message = `E_ENV_UNDEFINED: environment "${env}" is not defined in ${displayPath(project.rootFile, cwd)} (defined: ${known})`;
  // located at the project's root file: the stack then points there, not into reqflow
  return new FlowTestError('E_ENV_UNDEFINED', message, { file: project.rootFile, line: 1, col: 1 }, 'environment');
}
