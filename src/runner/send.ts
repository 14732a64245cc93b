// Sending one prepared request and writing it into the operation's trace and events.
import type { OutgoingRequest } from '../auth/types.js';
import type { RetrySpec } from '../project/types.js';
import type { FlowResponse } from '../http/response.js';
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
  // work then overlaps the server's instead of delaying the request. The exchange holds its
  // place in the trace now and is replaced, frozen as a whole, when the response is in.
  const request = requestRecord(req, ctx.redactor);
  const at = opts.trace.exchanges.push(Object.freeze({ request, purpose: opts.purpose })) - 1;
  try {
    const res = await sent;
    opts.inspect?.(res);
    const response = responseRecord(res, ctx.redactor);
    opts.trace.exchanges[at] = Object.freeze({ request, response, purpose: opts.purpose });
    ctx.emit({ type: 'request', operation: opts.trace.operation, purpose: opts.purpose, request, response });
    return res;
  } catch (err) {
    ctx.emit({ type: 'request', operation: opts.trace.operation, purpose: opts.purpose, request, error: errorRecord(err, ctx.redactor) });
    throw err;
  }
}
