// Is the server up? An HTTP GET answered as Playwright counts it (2xx, 3xx, 400-403: a server
// that says "unauthorized" is running), or a TCP port that accepts a connection.
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

export function isReady(probe: Probe): Promise<boolean> {
  return new Promise((resolve) => {
    if (probe.kind === 'port') {
      const socket = net.connect({ host: '127.0.0.1', port: probe.port });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
      return;
    }
    const get = probe.url.startsWith('https:') ? https.get : http.get;
    // a self-signed certificate on a local dev server is still a server that is up
    const req = get(probe.url, { timeout: PROBE_TIMEOUT_MS, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      const s = res.statusCode ?? 0;
      resolve(s >= 200 && s < 404);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
  });
}
