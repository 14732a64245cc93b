// The shapes a hook sees and gives back (documented for users in docs/hooks.md). Everything
// crosses a thread boundary: plain data only (structured clone).

import type { MessagePort } from 'node:worker_threads';
import type { HookSource } from './locate.js';

export type HookKind = 'pre_request' | 'post_response';

export interface HookRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** the body as text; undefined when there is none or it is multipart (not shown to hooks) */
  body?: string;
}

export interface HookResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** the body as text */
  body: string;
  /** the body parsed as JSON when the runner already did; else the hook parses it on first read */
  json?: unknown;
}

export interface HookInput {
  /** `<resource>.<operation>`, for messages and for the hook (`ctx.operation`) */
  operation: string;
  /** pre_request: the request about to be sent (with real credentials: a hook may sign it) */
  request?: HookRequest;
  /** post_response: the response received */
  response?: HookResponse;
  /** the values extracted so far for the operation's resource (newest instance) */
  vars: Record<string, unknown>;
}

export interface HookOutput {
  /** pre_request only, and only when the hook changed ctx.request: the whole new request */
  request?: HookRequest;
  /** pre_request only: the hook set ctx.request.body to a value, not text, and it became JSON text */
  jsonBody?: true;
  /** values the hook returned as `{ extract: {…} }`: stored on the resource like extractions */
  extract?: Record<string, unknown>;
  /** what the hook printed with console.*, in order (not printed: the runner redacts and shows them) */
  logs: string[];
}

/** What the runner hands the worker (hook-worker.js) for one call: plain data and a port. */
export interface WorkerTask {
  kind: HookKind;
  source: HookSource;
  input: HookInput;
  projectDir: string;
  /** the HTTP methods a pre_request hook may set (the project's own list) */
  methods: readonly string[];
  /** the worker posts on it when the call starts running (the time limit starts then) */
  started?: MessagePort;
}

/** What the worker answers: data only, whatever the hook did. */
export type WorkerAnswer =
  | { ok: true; request?: HookRequest; jsonBody?: true; extract?: Record<string, unknown>; logs: string[] }
  | { ok: false; message: string; line?: number; logs: string[] };

export interface HookRunnerOptions {
  /** hook files are resolved against it and must stay inside it */
  projectDir: string;
  /** per call; default 5000 */
  timeoutMs?: number;
  /** worker threads at most; default min(4, available cores) */
  maxThreads?: number;
}

export interface HookRunner {
  /** Run one hook. Rejects with FlowError E_HOOK (or E_FILE_OUTSIDE_PROJECT); never with anything else. */
  run(kind: HookKind, hook: string, input: HookInput): Promise<HookOutput>;
  /** Stop every worker. Idempotent; a later `run` rejects. */
  close(): Promise<void>;
}
