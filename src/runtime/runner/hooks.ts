// Glue between an operation and its JavaScript hooks, which run isolated in workers.
import type { OutgoingRequest } from '../../auth/types.js';
import type { Operation } from '../../project/types.js';
import type { FlowResponse } from '../response.js';
import type { HookOutput } from '../hooks/index.js';
import type { RunContext, Trace } from './context.js';

// `vars` is what the hook sees as ctx.vars: the values of the resource instance the operation
// works on (for post_response, with what the operation has just extracted).

export async function preRequestHook(ctx: RunContext, op: Operation, trace: Trace, req: OutgoingRequest, vars: Record<string, unknown>): Promise<OutgoingRequest> {
  const body = typeof req.body === 'string' ? req.body : undefined;
  const out = await ctx.hooks.run('pre_request', op.preRequest!, {
    operation: op.id,
    request: { method: req.method, url: req.url.toString(), headers: { ...req.headers }, body },
    vars,
  });
  keepLogs(ctx, trace, 'pre_request', out);
  const changed = out.request;
  if (!changed) return req;
  return {
    ...req,
    method: (changed.method as OutgoingRequest['method']) ?? req.method,
    url: changed.url ? new URL(changed.url) : req.url,
    headers: changed.headers ?? req.headers,
    // A hook sees (and may change or remove) a text body; a multipart body it never saw stays.
    body: typeof req.body === 'string' || req.body === undefined ? (changed.body ?? undefined) : req.body,
  };
}

/** Values the hook returns under `extract` are stored on the resource like extractions. */
export async function postResponseHook(ctx: RunContext, op: Operation, trace: Trace, res: FlowResponse, vars: Record<string, unknown>): Promise<Record<string, unknown>> {
  let json: unknown;
  try {
    json = res.json();
  } catch {
    json = undefined;
  }
  const out = await ctx.hooks.run('post_response', op.postResponse!, {
    operation: op.id,
    response: { status: res.status, headers: res.headers, body: res.text(), json },
    vars,
  });
  keepLogs(ctx, trace, 'post_response', out);
  return out.extract ?? {};
}

/** What a hook printed goes with its operation's result, redacted (a hook may print what it signs with). */
function keepLogs(ctx: RunContext, trace: Trace, hook: 'pre_request' | 'post_response', out: HookOutput): void {
  if (out.logs.length) (trace.hookLogs ??= []).push({ hook, lines: out.logs.map((line) => ctx.redactor.text(line)) });
}
