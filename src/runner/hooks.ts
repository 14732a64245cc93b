// Glue between an operation and its JavaScript hooks, which run isolated in workers.
import { FlowError } from '../errors.js';
import type { Operation } from '../project/index.js';
import { type FlowResponse, getHeader, type PreparedRequest } from '../http/index.js';
import type { HookInput, HookKind, HookOutput } from '../runtime/index.js';
import type { RunContext, Trace } from './context.js';

// `vars` is what the hook sees as ctx.vars: the values of the resource instance the operation
// works on (for post_response, with what the operation has just extracted).

export async function preRequestHook(
  ctx: RunContext,
  op: Operation,
  trace: Trace,
  req: PreparedRequest,
  vars: Record<string, unknown>,
): Promise<PreparedRequest> {
  const body = typeof req.body === 'string' ? req.body : undefined;
  const out = await runHook(ctx, trace, 'pre_request', op.preRequest!, {
    operation: op.id,
    request: { method: req.method, url: req.url.toString(), headers: { ...req.headers }, body },
    vars,
  });
  const changed = out.request;
  if (!changed) return req;
  const next: PreparedRequest = {
    ...req,
    method: (changed.method as PreparedRequest['method']) ?? req.method,
    url: changed.url ? new URL(changed.url) : req.url,
    headers: { ...(changed.headers ?? req.headers) },
    // A hook sees (and may change or remove) a text body; a multipart body it never saw stays.
    body: typeof req.body === 'string' || req.body === undefined ? (changed.body ?? undefined) : req.body,
  };
  // A body the hook set to an object went out as JSON text: say so, as for the operation's own
  // `body`, unless the hook chose a content-type itself.
  if (out.jsonBody && typeof next.body === 'string' && getHeader(next, 'content-type') === undefined) next.headers['content-type'] = 'application/json';
  return next;
}

/** Values the hook returns under `extract` are stored on the resource like extractions. */
export async function postResponseHook(
  ctx: RunContext,
  op: Operation,
  trace: Trace,
  res: FlowResponse,
  vars: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let json: unknown;
  try {
    json = res.json();
  } catch {
    json = undefined;
  }
  const out = await runHook(ctx, trace, 'post_response', op.postResponse!, {
    operation: op.id,
    response: { status: res.status, headers: res.headers, body: res.text(), json },
    vars,
  });
  return out.extract ?? {};
}

/**
 * Run a hook and keep what it printed with its operation's result, whether it succeeded or
 * failed (E_HOOK carries a failing hook's logs in its details): output is most wanted when
 * a hook fails, and `--verbose` and the Vitest plugin show result.hookLogs either way.
 */
async function runHook(ctx: RunContext, trace: Trace, hook: HookKind, code: string, input: HookInput): Promise<HookOutput> {
  let out: HookOutput;
  try {
    out = await ctx.hooks.run(hook, code, input);
  } catch (err) {
    const logs = err instanceof FlowError && err.code === 'E_HOOK' ? err.details?.logs : undefined;
    if (Array.isArray(logs)) keepLogs(ctx, trace, hook, logs.map(String));
    throw err;
  }
  keepLogs(ctx, trace, hook, out.logs);
  return out;
}

/** Redacted: a hook may print what it signs with. */
function keepLogs(ctx: RunContext, trace: Trace, hook: HookKind, logs: string[]): void {
  if (logs.length) (trace.hookLogs ??= []).push({ hook, lines: logs.map((line) => ctx.redactor.text(line)) });
}
