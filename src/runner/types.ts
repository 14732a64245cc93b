// Results are data: the CLI output, the Vitest tests and --record all read these.
// Everything in here is already redacted by the runner before it is handed out.
import type { HttpMethod, Loc } from '../project/index.js';
import type { Redactor } from '../redact/index.js';
import type { FlowResponse } from '../http/index.js';

// Exchange records are plain, redacted, frozen data (runner/records.ts): they can be spread,
// cloned, serialized and compared, and not changed.
export interface RequestRecord {
  readonly method: HttpMethod;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** request body as text, redacted, cut to a bounded excerpt; absent when the request has none */
  readonly body?: string;
}

export interface ResponseRecord {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  /** body as text, redacted, cut to a bounded excerpt */
  readonly body: string;
  readonly ms: number;
}

/** One HTTP exchange of an operation: `response` is absent when none came (a network error, a timeout). */
export interface Exchange {
  readonly request: RequestRecord;
  readonly response?: ResponseRecord;
  /** why it was sent: the operation, a login, a poll attempt … */
  readonly purpose: string;
}

export interface AssertRecord {
  expr: string;
  pass: boolean;
  actual?: unknown;
  /** on a failure with a value to compare: what was expected (`"draft"`, `> 100`), redacted */
  expected?: string;
  message?: string;
  /** on a failure, why, when the actual value does not say it all (`nothing at $.x`, `cannot order …`) */
  reason?: string;
  /** where the assert is written (absent for a poll_until condition) */
  loc?: Loc;
}

export interface ErrorRecord {
  code: string;
  message: string;
  loc?: Loc;
  details?: Record<string, unknown>;
}

export type OperationStatus = 'passed' | 'failed' | 'skipped';

export interface OperationResult {
  /** `<resource>.<operation>` */
  operation: string;
  status: OperationStatus;
  /** where the operation is declared */
  loc: Loc;
  /** the operations this one ran for as a prerequisite (empty when asked for directly) */
  prerequisiteOf: string[];
  /** every HTTP exchange, login and poll attempts included, in order */
  exchanges: Exchange[];
  extracted: Record<string, unknown>;
  asserts: AssertRecord[];
  error?: ErrorRecord;
  /** for a skip: why, e.g. `prerequisite order.create failed` */
  skippedBecause?: string;
  /** failed only its response check (a contract, E_CONTRACT): what it extracted was recorded and its dependents ran */
  valuesHandedOn?: boolean;
  /** for a skip: the operation whose failure blocked this one, through any chain of skips (none for a --var not given) */
  blockedBy?: string;
  /** what the operation's hooks printed with console.*, in order (redacted) */
  hookLogs?: HookLog[];
  /** what is reported without failing it (a contract check in `warn` mode, an undocumented request), redacted */
  warnings?: ResultWarning[];
  ms: number;
}

export interface ResultWarning {
  code: string;
  message: string;
}

/** An operation's response, as a `responseCheck` sees it. */
export interface CheckedResponse {
  operation: string;
  method: HttpMethod;
  /** the URL the response came from (after redirects) */
  url: string;
  response: FlowResponse;
  /** the run's redactor: a value shown in a message goes through it */
  redact(value: unknown): unknown;
}

/**
 * Called with each operation's response after expect_status (src/contract): a thrown
 * coded error fails the operation; returned warnings are reported on its result.
 */
export type ResponseCheck = (checked: CheckedResponse) => ResultWarning[] | undefined;

export interface HookLog {
  hook: 'pre_request' | 'post_response';
  lines: string[];
}

export interface RunSummary {
  results: OperationResult[];
  passed: number;
  failed: number;
  skipped: number;
  ms: number;
}

/** One instance the clean-up deleted, or could not (docs/format.md#ownership). */
export interface CleanupEntry {
  resource: string;
  /**
   * its place in the run's state, from 1 (`{{item[2].id}}`); none for what a write made that
   * the state does not record (a create that answered another status than expected, a clone)
   */
  index?: number;
  /** the value its delete names it by, redacted */
  id?: string;
  /** the operation whose answer made it */
  createdBy?: string;
  /** the delete operation sent (for what is left: the one that failed, or could not be sent) */
  via?: string;
  /** `via` was sent as the actor that made the instance, its own identity having been refused */
  actor?: string;
  /** what the delete answered */
  status?: number;
  /** the removals sent after `via` (an archive's delete after the archiving one) */
  then?: CleanupStep[];
  /** why it is left */
  why?: string;
  /** its removal refused, it was found gone after later removals: the read and those removals (`issue.get 404 after project.delete`) */
  gone?: string;
}

export interface CleanupStep {
  via: string;
  /** sent as the actor that made the instance, after `via`'s own answered 401 or 403 */
  actor?: string;
  status: number;
}

export interface RestoreEntry {
  operation: string;
  restored: boolean;
  /** the status the restore got, or why there was none */
  detail: string;
}

/** What a clean-up did: switches written back, then what the run created deleted, newest first. */
export interface CleanupReport {
  restored: RestoreEntry[];
  deleted: CleanupEntry[];
  /** what could not be deleted, with why */
  left: CleanupEntry[];
  /** the requests sent, redacted */
  exchanges: Exchange[];
}

/** Progress events, for `flow run` output and the Vitest reporter. */
export type RunEvent =
  | { type: 'operation:start'; operation: string; prerequisiteOf: string[] }
  | { type: 'request'; operation: string; purpose: string; request: RequestRecord; response?: ResponseRecord; error?: ErrorRecord }
  | { type: 'operation:end'; result: OperationResult }
  /** what a clean-up did (each fork's too: a calibration's tries clean up one by one) */
  | { type: 'cleanup'; report: CleanupReport };

export interface RunnerOptions {
  /** environment id; default: the project's default_environment, else the only/first one */
  env?: string;
  /** values for `<SET_VIA_--var>` placeholders */
  vars?: Record<string, string>;
  /** how many independent operations may run at once (default 1) */
  concurrency?: number;
  /** the process environment, for FLOW_SECRET_* and FLOW_VAR_* (default process.env) */
  processEnv?: NodeJS.ProcessEnv;
  onEvent?: (event: RunEvent) => void;
  /** the project's graph, when the caller built it already (default: built here) */
  graph?: import('../graph/index.js').ProjectGraph;
  /** how long a pre_request / post_response hook may run (default 5000 ms) */
  hookTimeoutMs?: number;
  /** checks every operation's response, e.g. against an OpenAPI description (src/contract) */
  responseCheck?: ResponseCheck;
  /** keep each operation's latest answer, whatever its status, for runner.answer() (a calibration reads fields in it) */
  keepAnswers?: boolean;
  /** the clock for session expiry (tests move it forward); default Date.now */
  clock?: () => number;
  /**
   * skip (never fail) an operation that needs a <SET_VIA_--var> nobody gave, itself or through
   * a prerequisite, with the --var it needs as the reason; baseUrl is not skipped for (every
   * operation would be). `flow run` and the Vitest plugin set it; default: E_VAR_UNRESOLVED.
   */
  skipUnset?: boolean;
  /**
   * The operations the user named (docs/format.md#ownership): a switch — a write whose path
   * names no instance — is sent only when named. Absent: every operation counts as named.
   */
  named?: readonly string[];
  /** the run's redactor, when the caller shows other output through it too (a managed server's); default: a new one */
  redactor?: Redactor;
  /** writes (POST, PUT, PATCH, DELETE) only to loopback or the environment's `write_hosts`, else E_HOST_NOT_WRITABLE (calibrate, explore) */
  guardWrites?: boolean;
  /** the brake (--rate, Retry-After waits counted) shared by every runner of one command; default: the client's own */
  brake?: import('../http/index.js').Brake;
  /**
   * seeds `{{$.faker.*}}` and `{{$.uuid}}` (explore's --seed): the same seed renders the same
   * values; runners given the same object continue one sequence. Default: unseeded.
   */
  random?: { seed: number };
}

/** What a probe sends instead of what the operation writes (Runner.probe). */
export interface ProbeOverrides {
  /**
   * the body to send instead of the operation's own: data, sent as JSON, NEVER rendered as a
   * template (text from a description or a server is data). `keepWritten: true` keeps the
   * top-level fields the operation itself writes with a {{…}} (a parent's id), rendered.
   */
  body?: unknown;
  keepWritten?: boolean;
  /** query values sent over the operation's rendered ones: data, never rendered */
  query?: Record<string, unknown>;
  /**
   * which instance of the operation's own resource its {{<resource>.x}} references read
   * (from 1, as {{item[2].id}}); default: the newest, as in a run. With an instance given,
   * the prerequisites of its own resource are not run first (that instance exists already).
   */
  instance?: number;
  /** send as this actor instead of the operation's own; null: with no credentials at all */
  actor?: string | null;
  timeoutMs?: number;
  /**
   * extract what the answer gives into this runner's state (a create whose instance later
   * steps read), when the operation's expect_status (else a 2xx) accepts the answer: a refused
   * create made nothing. The operation then counts as run in this runner (not run again as a
   * prerequisite). Default false: nothing is extracted, nothing recorded.
   */
  record?: boolean;
}

export interface ProbeResult {
  /**
   * the probe as a result record: its exchanges (logins and prerequisites it had to run first
   * are in their own results), redacted. status: 'passed' when an answer came (ANY status),
   * 'failed' with error when none came (network, timeout) or it could not be prepared
   * (E_VAR_UNRESOLVED, E_SECRET_MISSING…), 'skipped' when a prerequisite failed
   */
  result: OperationResult;
  /** the raw answer when one came: for checks, never shown unredacted */
  response?: FlowResponse;
}
