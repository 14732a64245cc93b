// undici's and Node's errors -> our coded FlowErrors. Messages name the origin or the
// request's URL and the underlying code, never a header value or body. A URL may hold a
// secret in its path or query: records redact error messages (runner/records.ts errorRecord).
import { FlowError, hasCode, type ErrorCode } from '../errors.js';

/** `url`: the request's URL when known (the last hop), for the messages that name a request rather than a server */
type Mapper = (origin: string, code: string, err: Error, url?: string) => FlowError;

/** The FlowError of `flowCode` for an error with Node's or undici's `code`, which its details name. */
const mapped =
  (flowCode: ErrorCode, text: (origin: string, code: string, err: Error) => string): Mapper =>
  (origin, code, err) =>
    new FlowError(flowCode, text(origin, code, err), { details: { cause: code }, cause: err });

const timeout = mapped('E_TIMEOUT', (origin, code) => `${origin} did not answer in time (${code})`);
const tls = mapped('E_TLS', (origin, code, err) => `TLS error with ${origin}: ${code} (${oneLine(err.message)})`);
const network = (what: string) => mapped('E_HTTP', (origin, code) => `${what} ${origin} (${code})`);
const aborted = mapped('E_ABORTED', (origin) => `the request to ${origin} was cancelled`);

const BY_CODE: Record<string, Mapper> = {
  ECONNREFUSED: mapped('E_CONNECTION_REFUSED', (origin) => `connection refused by ${origin}`),
  UND_ERR_CONNECT_TIMEOUT: timeout,
  UND_ERR_HEADERS_TIMEOUT: timeout,
  UND_ERR_BODY_TIMEOUT: timeout,
  ETIMEDOUT: timeout,
  ECONNRESET: network('connection reset by'),
  EPIPE: network('connection closed by'),
  UND_ERR_SOCKET: network('connection closed by'),
  UND_ERR_CLOSED: network('connection closed to'),
  ENOTFOUND: network('cannot resolve the host of'),
  EAI_AGAIN: network('cannot resolve the host of'),
  EHOSTUNREACH: network('no route to'),
  ENETUNREACH: network('no route to'),
  UND_ERR_DESTROYED: mapped('E_ABORTED', (origin) => `the HTTP client was closed before ${origin} answered`),
  UND_ERR_ABORTED: aborted,
  ABORT_ERR: aborted,
  UND_ERR_INVALID_ARG: (origin, code, err, url) =>
    // undici detects a redirect cycle (A -> B -> A) with this error; it has no own code
    /redirect loop/i.test(err.message)
      ? new FlowError('E_REDIRECT_LOOP', `redirect loop: ${url ?? origin} redirected back to a URL already visited`, { details: { cause: code }, cause: err })
      : new FlowError('E_HTTP', `invalid request to ${origin}: ${oneLine(err.message)}`, { details: { cause: code }, cause: err }),
};

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);

/** TLS alerts by which a server refuses a client certificate (or asks for one), by Node's code. */
const CERT_ALERTS: Record<string, string> = {
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'unknown ca',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'bad certificate',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'certificate unknown',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 'certificate expired',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED: 'certificate revoked',
  ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: 'unsupported certificate',
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: 'access denied',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'certificate required',
};
const CHECK_CLIENT_CERT =
  "check that the actor's mtls cert_path was issued by a CA the server trusts (not another one), that it has not expired and allows client authentication (extendedKeyUsage clientAuth), and that key_path is its key";
const MTLS_AUTH = 'give the actor mtls auth (cert_path and key_path)';
/** the alert of a TLS 1.2 server that requires a client certificate, to a client without one */
const HANDSHAKE_FAILURE = 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE';
const GIVE_CLIENT_CERT = `the server asks for a client certificate: ${MTLS_AUTH}`;
/** how a connection that closed before any answer ends */
const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** What the request was sent with, for the errors whose meaning depends on it. */
export interface SentWith {
  /** a client certificate (mTLS) */
  clientCert?: boolean;
}

/** Map any error of a send to a FlowError; ours pass through unchanged. */
export function toFlowError(err: unknown, origin: string, url?: string, sent: SentWith = {}): FlowError {
  if (err instanceof FlowError || (hasCode(err) && (err as unknown as Error).name === 'FlowError')) return err as FlowError;
  const e = err instanceof Error ? err : new Error(String(err));
  const code = codeOf(e);
  const refusal = clientCertRefusal(origin, code, e, sent);
  if (refusal) return refusal;
  const mapper = BY_CODE[code] ?? (TLS_CODES.has(code) || /^ERR_(TLS|SSL)_/.test(code) ? tls : undefined);
  if (mapper) return mapper(origin, code, e, url);
  if (e.name === 'AbortError') return aborted(origin, code || 'AbortError', e);
  return new FlowError('E_HTTP', `request to ${origin} failed: ${code || oneLine(e.message)}`, { details: { cause: code || e.name }, cause: e });
}

/**
 * A refused client certificate is E_TLS with what to check, and so is a missing one that the
 * server seems to require (a handshake failure, or a close right after the handshake, when none
 * was sent: said as the likely cause, since other causes look the same). Under TLS 1.2 the refusal is an
 * alert in the handshake. Under TLS 1.3 the client's handshake is over before the server has
 * checked its certificate: the refusal comes with the first read, and mostly shows as a closed
 * connection ("other side closed") on which nothing was ever received, even when the server
 * sent an alert. Nothing received on a connection with a client certificate is taken as that.
 */
function clientCertRefusal(origin: string, code: string, err: Error, sent: SentWith): FlowError | undefined {
  const alert = CERT_ALERTS[code];
  if (alert) {
    const hint = sent.clientCert ? CHECK_CLIENT_CERT : GIVE_CLIENT_CERT;
    return new FlowError('E_TLS', `${origin} refused the TLS connection (alert "${alert}", ${code}): ${hint}`, { details: { cause: code }, cause: err });
  }
  if (code === HANDSHAKE_FAILURE && !sent.clientCert) {
    return new FlowError(
      'E_TLS',
      `${origin} refused the TLS handshake (alert "handshake failure", ${code}): a server that requires a client certificate answers so to a client without one (another cause is no protocol version or cipher in common); if this one does, ${MTLS_AUTH}`,
      { details: { cause: code, clientCertificate: false }, cause: err },
    );
  }
  if (!CLOSED.has(code) || !nothingReceived(err)) return undefined;
  // Without a certificate the same close is only the likely cause (a server that requires one,
  // Node's under TLS 1.3, closes rather than answers), and only on a TLS connection.
  if (!sent.clientCert && !origin.startsWith('https:')) return undefined;
  const how = sent.clientCert
    ? `this is how a server refuses a client certificate; ${CHECK_CLIENT_CERT}`
    : `this is how a server that requires a client certificate refuses a connection without one; if this one does, ${MTLS_AUTH}`;
  return new FlowError('E_TLS', `${origin} closed the connection right after the TLS handshake, before any answer (${code}): under TLS 1.3 ${how}`, {
    details: { cause: code, clientCertificate: sent.clientCert === true },
    cause: err,
  });
}

/** undici's socket errors say how many bytes the connection received: none, when it closed at once. */
function nothingReceived(err: Error): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const bytesRead = (e as { socket?: { bytesRead?: unknown } }).socket?.bytesRead;
    if (typeof bytesRead === 'number') return bytesRead === 0;
  }
  return false;
}

/** The most specific code: a socket error wrapped by undici keeps Node's code in `cause`. */
function codeOf(err: Error): string {
  const own = hasCode(err) ? err.code : '';
  const cause = (err as { cause?: unknown }).cause;
  if ((own === 'UND_ERR_SOCKET' || !own) && hasCode(cause) && cause.code !== own) return cause.code;
  const inner = (err as { errors?: unknown[] }).errors?.[0]; // AggregateError of happy-eyeballs connects
  if (!own && hasCode(inner)) return inner.code;
  return own;
}

function oneLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
