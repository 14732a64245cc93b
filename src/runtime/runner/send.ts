// Sending one prepared request and writing it into the operation's trace and events.
import type { OutgoingRequest } from '../../auth/types.js';
import type { RetrySpec } from '../../project/types.js';
import type { FlowResponse } from '../response.js';
import type { RunContext, Trace } from './context.js';
import { errorRecord, requestRecord, responseRecord } from './records.js';

export interface SendOptions {
  trace: Trace;
  purpose: string;
  actor?: string;
  timeoutMs?: number;
  retry?: RetrySpec;
  /**
   * Called with the response before it is recorded or shown: a login registers the tokens it
   * returns with the redactor here, so that its own response body never shows them.
   */
  inspect?: (res: FlowResponse) => void;
}

export async function send(ctx: RunContext, req: OutgoingRequest, opts: SendOptions): Promise<FlowResponse> {
  const sent = ctx.http.send({
    method: req.method,
    url: req.url,
    headers: req.headers,
    body: req.body,
    credentialHeaders: req.credentialHeaders,
    // the client applies DEFAULT_TIMEOUT_MS when the operation sets none
    timeoutMs: opts.timeoutMs,
    retry: opts.retry,
    cookieJar: ctx.jar(opts.actor),
    tls: req.tls,
    resign: req.resign,
  });
  // Recorded once the request is on its way (the client writes it before it returns): this
  // work then overlaps the server's instead of delaying the request.
  const request = requestRecord(req, ctx.redactor);
  const entry: Trace['exchanges'][number] = { request, purpose: opts.purpose };
  opts.trace.exchanges.push(entry);
  try {
    const res = await sent;
    opts.inspect?.(res);
    entry.response = responseRecord(res, ctx.redactor);
    ctx.emit({ type: 'request', operation: opts.trace.operation, purpose: opts.purpose, request, response: entry.response });
    return res;
  } catch (err) {
    ctx.emit({ type: 'request', operation: opts.trace.operation, purpose: opts.purpose, request, error: errorRecord(err, ctx.redactor) });
    throw err;
  }
}
