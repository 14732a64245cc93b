// Sending one prepared request and writing it into the operation's trace and events.
import type { RetrySpec } from '../project/index.js';
import type { FlowResponse, PreparedRequest } from '../http/index.js';
import type { RunContext, Trace } from './context.js';
import { errorRecord, requestRecord, responseRecord } from './records.js';
import { noteAnswer } from './outage.js';
import { hideIssuedCredentials } from './issued.js';

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

export async function send(ctx: RunContext, req: PreparedRequest, opts: SendOptions): Promise<FlowResponse> {
  // The one request type (http/types.ts) goes to the client as it is: only how to send it is added.
  req.timeoutMs = opts.timeoutMs; // the client applies DEFAULT_TIMEOUT_MS when the operation sets none
  req.retry = opts.retry;
  req.cookieJar = ctx.jar(opts.actor);
  if (ctx.environment?.redirectHosts) req.redirectHosts = ctx.environment.redirectHosts;
  const sent = ctx.http.send(req);
  // Recorded once the request is on its way (the client writes it before it returns): this
  // work then overlaps the server's instead of delaying the request. The exchange holds its
  // place in the trace now and is replaced, frozen as a whole, when the response is in.
  const request = requestRecord(req, ctx.redactor);
  const at = opts.trace.exchanges.push(Object.freeze({ request, purpose: opts.purpose })) - 1;
  try {
    const res = await sent;
    opts.inspect?.(res);
    hideIssuedCredentials(res, ctx.redactor);
    noteAnswer(ctx, req.method, res.status, `${req.method} ${request.url} (${opts.purpose})`);
    const response = responseRecord(res, ctx.redactor);
    opts.trace.exchanges[at] = Object.freeze({ request, response, purpose: opts.purpose });
    ctx.emit({ type: 'request', operation: opts.trace.operation, purpose: opts.purpose, request, response });
    return res;
  } catch (err) {
    ctx.emit({ type: 'request', operation: opts.trace.operation, purpose: opts.purpose, request, error: errorRecord(err, ctx.redactor) });
    throw err;
  }
}
