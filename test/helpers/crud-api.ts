// What the small CRUD APIs of the tests (authz-api.ts, explore-api.ts, tasks-api.ts) share:
// a node:http server on 127.0.0.1:0 that hands each request to a handler with its whole body
// as text, and closes with its sockets dropped (a handler that never answers cannot hang a
// test); JSON answers; a JSON request body read or refused with 400.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, text: string) => void;

export interface CrudServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function serveCrud(handle: Handler): Promise<CrudServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer (`body` undefined: none). */
export function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Marks a request already answered (400: not JSON). */
export const ANSWERED = Symbol('answered');

/** The JSON body of a POST, PUT or PATCH (undefined for another method); a body that is not JSON is answered 400. */
export function jsonBody(req: IncomingMessage, res: ServerResponse, text: string): unknown {
  if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    send(res, 400, { error: 'not JSON' });
    return ANSWERED;
  }
}

/** Characters, as a JSON Schema's minLength and maxLength count them. */
export const chars = (s: string): number => [...s].length;
