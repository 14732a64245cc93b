// Is the server up? An HTTP GET answered as Playwright counts it (2xx, 3xx, 400-403: a server
// that says "unauthorized" is running) at a URL the user named; any HTTP answer at one
// defaulted from baseUrl; or a TCP port that accepts a connection. Each try says what it got,
// for the progress line and for E_SERVER_TIMEOUT.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { FlowError } from '../errors.js';
import type { Redactor } from '../redact/index.js';
import { shownCommand } from './command.js';

export type Probe = { kind: 'http'; url: string } | { kind: 'port'; port: number };

const PROBE_TIMEOUT_MS = 2_000;

/** Where requests go once the server is ready: the origin of its url, else 127.0.0.1 at its port. */
export function originOf(probe: Probe): string {
  return probe.kind === 'http' ? new URL(probe.url).origin : `http://127.0.0.1:${probe.port}`;
}

/** `redactor`: hides the command's credentials when it is named (default: the command is not named) */
export function probeUrl(options: { url?: string; port?: number; command: string }, redactor?: Redactor): Probe {
  if (options.url) {
    try {
      const url = new URL(options.url);
      if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'http', url: url.href };
    } catch {
      // reported below
    }
    throw new FlowError('E_SERVER_OPTIONS', `server.url must be an http(s) URL, got ${JSON.stringify(options.url)}`);
  }
  if (options.port !== undefined) return { kind: 'port', port: options.port };
  const named = redactor ? ` "${shownCommand(options.command, redactor)}"` : '';
  throw new FlowError('E_SERVER_OPTIONS', `server${named}: give the url (or port) it answers at`);
}

/** One try: whether it counts as up, and what it got, as a message says it. */
export interface ProbeResult {
  up: boolean;
  /** `connection refused`, `HTTP 404`, `a TLS error (ERR_SSL_WRONG_VERSION_NUMBER)`, … */
  got: string;
  /** the HTTP status, when there was an answer */
  status?: number;
}

export async function isReady(probe: Probe, anyAnswer = false): Promise<boolean> {
  return (await tryProbe(probe, anyAnswer)).up;
}

/**
 * `anyAnswer`: the URL was not named by the user but defaulted from baseUrl, where most APIs
 * answer 404: any HTTP answer means up.
 */
export function tryProbe(probe: Probe, anyAnswer = false): Promise<ProbeResult> {
  return new Promise((resolve) => {
    if (probe.kind === 'port') {
      const socket = net.connect({ host: '127.0.0.1', port: probe.port });
      const done = (result: ProbeResult) => {
        socket.destroy();
        resolve(result);
      };
      socket.setTimeout(PROBE_TIMEOUT_MS, () => done({ up: false, got: NO_ANSWER }));
      socket.once('connect', () => done({ up: true, got: 'a connection' }));
      socket.once('error', (err) => done({ up: false, got: failure(err) }));
      return;
    }
    const get = probe.url.startsWith('https:') ? https.get : http.get;
    // a self-signed certificate on a local dev server is still a server that is up
    const req = get(probe.url, { timeout: PROBE_TIMEOUT_MS, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      resolve({ up: anyAnswer || (status >= 200 && status < 404), got: `HTTP ${status}`, status });
    });
    let timedOut = false;
    req.once('timeout', () => {
      timedOut = true;
      req.destroy();
    });
    req.once('error', (err) => resolve({ up: false, got: timedOut ? NO_ANSWER : failure(err) }));
  });
}

const NO_ANSWER = `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;

/** A failed try as a message says it. */
function failure(err: Error): string {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return `the connection closed (${code})`;
  if (/^ERR_(SSL|TLS)_|CERT|EPROTO/.test(code)) {
    // OpenSSL's reason (`wrong version number`: an https URL on a plain-http server)
    const reason = /SSL routines:[^:]*:([^:\n]+)/.exec(err.message)?.[1];
    return `a TLS error (${code}${reason ? `: ${reason}` : ''})`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host not found (${code})`;
  return code || err.message.split('\n')[0].slice(0, 100);
}
