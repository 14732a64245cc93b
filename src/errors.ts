// Errors are classes with a readonly `code`. Callers match on `code`, never on `instanceof`:
// a Vitest worker may load a second copy of this package. Formatting is the CLI's and the
// reporter's job; a message here is one plain sentence without secrets.
import type { Loc } from './project/index.js';

export interface FlowErrorOptions {
  loc?: Loc;
  /** the operation this error happened in, `<resource>.<operation>` */
  operation?: string;
  /** structured facts for reporters (expected/actual status, body excerpt, …) */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Every code a FlowError carries, with what it means: the one list. README.md's "Error codes"
 * tables document each (test/errors.test.ts checks both ways); lint's own codes, which are
 * diagnostics rather than errors, are src/lint/codes.ts.
 */
export const ERROR_CODES = {
  // the project cannot be read (loader codes a command may stop on)
  E_PROJECT_NOT_FOUND: 'the project directory does not exist or is not a directory',
  E_NO_ROOT: 'no flow.yaml in the directory',
  E_YAML_PARSE: 'bad YAML',
  E_ROOT_NOT_MAPPING: 'flow.yaml is not a mapping',
  E_FILE_UNREADABLE: 'a file cannot be read',
  E_FILE_TOO_LARGE: 'a project file over the size limit',
  E_FILE_BINARY: 'a project file with NUL bytes',
  E_FILE_NOT_FOUND: 'a file (an import, an upload) does not exist',
  E_FILE_OUTSIDE_PROJECT: 'an import, upload or hook path leaves the project directory',
  // writing into a project (src/project/write.ts)
  E_WRITE_OUTSIDE: 'a file to write lies outside the project, or is reached through a symbolic link',
  E_WRITE_NOT_FILE: 'a file to write or edit is not a regular file (a FIFO, a device, a folder) or is over the size limit',
  E_WRITE_NAME: 'a file or folder name longer than the file system takes',
  E_WRITE_FAILED: 'a file cannot be written (no space, no permission, a folder that is not empty)',
  // a run
  E_STATUS_MISMATCH: 'the status is not the one expected',
  E_ASSERT_FAILED: 'an assertion failed',
  E_ASSERT_SYNTAX: 'an assertion that does not parse',
  E_EXTRACT_FAILED: 'an extraction found nothing, or can never work',
  E_PATH_INVALID: 'an extraction or assertion path that cannot be read',
  E_NOT_JSON: 'JSON asked of a body that is not JSON',
  E_BODY_TRUNCATED: 'JSON asked of a body cut at the size limit',
  E_VAR_UNRESOLVED: 'a value nothing has produced, or a <SET_VIA_--var> nobody gave',
  E_SECRET_MISSING: 'a secret set nowhere, or in a keychain that cannot be reached',
  E_CYCLE: 'a circular dependency',
  E_REF_UNDEFINED: 'an operation or reference that does not exist',
  E_TEMPLATE_SYNTAX: 'a malformed {{ }} or an unknown builtin',
  E_TEMPLATE_CYCLE: 'environment values that reference each other in a loop',
  E_ENV_UNDEFINED: 'an environment the project does not declare',
  E_URL_INVALID: 'the URL built is not http(s)',
  E_PATH_ORIGIN: "a path rendered to a URL on another origin than baseUrl's",
  E_HOST_NOT_WRITABLE: 'calibrate or explore would write to a host that is neither loopback nor in write_hosts',
  E_PATH_SEGMENT: 'a path value that would change the path: an empty, . or .. segment',
  E_NOT_OWNED: 'a write on an instance this run did not create, without acts_on: existing: not sent',
  E_SERVER_UNAVAILABLE: 'most answers turned to 503 mid-run: the run stopped, naming the last write before the change',
  E_SWITCH_NOT_NAMED: 'a write whose path names no instance (a setting, a switch), not named by the user: not sent',
  E_TIMEOUT: 'no complete response within the timeout',
  E_CONNECTION_REFUSED: 'the connection was refused',
  E_HTTP: 'another network error',
  E_TLS: 'a certificate problem',
  E_REDIRECT_ORIGIN: 'a redirect to another origin whose host the environment does not allow',
  E_REDIRECT_LOOP: 'a redirect cycle, or too many redirects',
  E_ABORTED: 'the request was cancelled',
  E_POLL_TIMEOUT: 'poll_until did not hold after max_attempts',
  E_AUTH: 'a login, chain step or refresh failed, or a strategy is not supported yet',
  E_HOOK: 'a hook threw, timed out or returned something unusable',
  E_BODY_FORM: 'a body_form value that cannot be sent',
  E_CONTRACT: 'a response breaks the OpenAPI description',
  E_CONTRACT_LOAD: 'the OpenAPI description cannot be read',
  E_CONTRACT_LIMIT: 'a response too deep, too large or too slow to check against its schema',
  E_NOTHING_EXPLORED: 'flow explore sent steps and none got an answer',
  E_CONTRACT_PATTERN: 'a pattern in the description that cannot be matched in linear time with its JavaScript meaning',
  // flow run --server
  E_SERVER_OPTIONS: 'server options that do not fit together',
  E_SERVER_IN_USE: 'the address the server is to answer on is already taken',
  E_SERVER_EXITED: 'the server exited before it answered',
  E_SERVER_TIMEOUT: 'the server did not answer in time',
  // commands
  E_USAGE: 'a usage error',
  E_INTERNAL: 'a bug in reqflow',
  E_KEYCHAIN_UNAVAILABLE: 'the OS keychain cannot be reached',
  E_INIT_EXISTS: 'flow init would replace a file that exists',
  // the importer (docs/import.md)
  E_IMPORT_INPUT: 'an input file cannot be read',
  E_IMPORT_FORMAT: 'the format of an input cannot be detected',
  E_IMPORT_PARSE: 'an input is not valid for its format',
  E_IMPORT_INTO: '--into names no project, or a file there cannot be edited',
  E_IMPORT_OUT_EXISTS: 'the output directory exists and is not empty',
  E_IMPORT_ANSWER: 'an answer without files, or with a path outside the project',
  E_LLM_UNREACHABLE: "the model's endpoint cannot be reached",
  E_LLM_AUTH: 'the endpoint refused the key',
  E_LLM_RATE_LIMIT: 'still rate-limited after waiting',
  E_LLM_TIMEOUT: 'the model did not answer in time',
  E_LLM_TRUNCATED: "the answer stopped at the model's length limit",
  E_LLM_RESPONSE: 'an answer that is not a chat completion',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes of a refused or failed write into a project (src/project/write.ts): errors of a command, not lint findings. */
export const WRITE_CODES = {
  outside: 'E_WRITE_OUTSIDE',
  notFile: 'E_WRITE_NOT_FILE',
  name: 'E_WRITE_NAME',
  failed: 'E_WRITE_FAILED',
} as const satisfies Record<string, ErrorCode>;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

export class FlowError extends Error {
  readonly code: ErrorCode;
  loc?: Loc;
  operation?: string;
  details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: FlowErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FlowError';
    this.code = code;
    this.loc = options.loc;
    this.operation = options.operation;
    this.details = options.details;
  }
}

/** True for any error carrying a `code` string (ours, undici's, Node's). */
export function hasCode(err: unknown): err is { code: string; message: string } {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string';
}

/**
 * Give an error a position when it has none, keeping its code and message: the one way a
 * position is attached after the fact. The first position given wins, so the most precise
 * one (an assert's line, an actor's `auth:`) is kept over its operation's. The HTTP layer
 * throws without one; the runner attaches it. A thrown non-object becomes E_INTERNAL.
 */
export function withLoc<E extends object>(err: E, loc: Loc): E;
export function withLoc(err: unknown, loc: Loc): object;
export function withLoc(err: unknown, loc: Loc): object {
  if (typeof err !== 'object' || err === null) return new FlowError('E_INTERNAL', String(err), { loc });
  const e = err as { loc?: Loc };
  if (!e.loc && Object.isExtensible(e)) e.loc = loc;
  return e;
}
