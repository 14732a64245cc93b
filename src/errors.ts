// Errors are classes with a readonly `code`. Callers match on `code`, never on `instanceof`:
// a Vitest worker may load a second copy of this package. Formatting is the CLI's and the
// reporter's job; a message here is one plain sentence without secrets.
import type { Loc } from './project/types.js';

export interface FlowErrorOptions {
  loc?: Loc;
  /** the operation this error happened in, `<resource>.<operation>` */
  operation?: string;
  /** structured facts for reporters (expected/actual status, body excerpt, …) */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class FlowError extends Error {
  readonly code: string;
  loc?: Loc;
  operation?: string;
  details?: Record<string, unknown>;

  constructor(code: string, message: string, options: FlowErrorOptions = {}) {
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

/** Wrap an error with a position, keeping its code (the HTTP layer has none; the runner adds it). */
export function withLoc<E extends { loc?: Loc; operation?: string }>(err: E, loc: Loc, operation?: string): E {
  if (!err.loc) err.loc = loc;
  if (operation && !err.operation) err.operation = operation;
  return err;
}
