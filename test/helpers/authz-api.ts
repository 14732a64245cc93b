// A notes API (node:http, port 0) with three users, for `flow explore --authz`: its
// description and project are test/fixtures/authz. `fixed: false` has the authorization bugs
// of issue 43 and one more of each kind the checks find; `fixed: true` is the same API with
// the checks right. Both share by design: a board every user reads (only its owner changes
// it), a page anyone reads with no credentials, every note for the admin (a moderator).
//   E_AUTHZ_OTHER_READ   bob reads alice's note: GET /notes/{id} answers 200
//   E_AUTHZ_OTHER_WRITE  bob deletes alice's note: DELETE answers 204, and the note is gone
//   E_AUTHZ_ANONYMOUS    anyone changes a note with no credentials: PATCH answers 200 (with a
//                        token, a user who is not the owner gets 403)
//   E_AUTHZ_OTHER_READ   GET /notes lists every user's notes, not the caller's
//   E_AUTHZ_ROLE         GET /admin/stats (scope admin) answers any valid token
//   E_AUTHZ_ANONYMOUS    POST /pages makes a page with no credentials
//   E_AUTHZ_ROLE         POST /pages/{id}/feature (scope admin) features a page for any valid token
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANSWERED, chars, jsonBody, send, serveCrud } from './crud-api.js';

export const AUTHZ_TOKENS = { alice: 'tok-alice-5ecret-a1', bob: 'tok-bob-5ecret-b2', admin: 'tok-admin-5ecret-c3' } as const;
/** the secrets the fixture's actors read */
export const AUTHZ_ENV = {
  FLOW_SECRET_ALICE_TOKEN: AUTHZ_TOKENS.alice,
  FLOW_SECRET_BOB_TOKEN: AUTHZ_TOKENS.bob,
  FLOW_SECRET_ADMIN_TOKEN: AUTHZ_TOKENS.admin,
};

type User = keyof typeof AUTHZ_TOKENS;
type Owner = User | 'nobody';
const SCOPES: Record<User, string[]> = { alice: ['notes'], bob: ['notes'], admin: ['notes', 'admin'] };

interface Thing {
  id: string;
  owner: Owner;
  [field: string]: unknown;
}

export interface AuthzApi {
  url: string;
  notes: Map<string, Thing>;
  boards: Map<string, Thing>;
  pages: Map<string, Thing>;
  /** every request, `METHOD /path user|-`, in order */
  log: string[];
  close(): Promise<void>;
}

/** The fixture project's files (test/fixtures/authz), for writeProject. */
export function authzProject(): Record<string, string> {
  const root = fileURLToPath(new URL('../fixtures/authz', import.meta.url));
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const name = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(name);
      else out[name] = readFileSync(path.join(root, name), 'utf8');
    }
  };
  walk('');
  return out;
}

const FIELDS: Record<string, Record<string, { max: number; required?: boolean }>> = {
  notes: { title: { max: 80, required: true }, text: { max: 500 } },
  boards: { name: { max: 80, required: true } },
  pages: { title: { max: 80, required: true } },
};

/** Why `body` breaks the input schema (`partial`: a PATCH); undefined when it is valid. */
function invalid(kind: string, body: unknown, partial: boolean): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body must be an object';
  const fields = FIELDS[kind];
  for (const k of Object.keys(body)) if (!(k in fields)) return `${k}: not a field`;
  for (const [k, rule] of Object.entries(fields)) {
    const v = (body as Record<string, unknown>)[k];
    if (v === undefined) {
      if (rule.required && !partial) return `${k}: required`;
      continue;
    }
    const min = rule.required ? 1 : 0;
    if (typeof v !== 'string' || chars(v) < min || chars(v) > rule.max) return `${k}: a string of ${min} to ${rule.max} characters`;
  }
  return undefined;
}

export async function startAuthzApi({ fixed }: { fixed: boolean }): Promise<AuthzApi> {
  const stores: Record<string, Map<string, Thing>> = { notes: new Map(), boards: new Map(), pages: new Map() };
  const log: string[] = [];
  let next = 1;
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const auth = req.headers.authorization;
    const user = (Object.keys(AUTHZ_TOKENS) as User[]).find((u) => auth === `Bearer ${AUTHZ_TOKENS[u]}`);
    log.push(`${req.method} ${url.pathname} ${user ?? '-'}`);
    if (auth !== undefined && !user) return send(res, 401, { error: 'unknown token' });
    const denied = () => send(res, 401, { error: 'a token is required' });
    if (url.pathname === '/admin/stats' && req.method === 'GET') {
      if (!user) return denied();
      if (fixed && !SCOPES[user].includes('admin')) return send(res, 403, { error: 'the admin scope is required' });
      return send(res, 200, { notes: stores.notes.size, boards: stores.boards.size, pages: stores.pages.size });
    }
    const feature = /^\/pages\/([^/]+)\/feature$/.exec(url.pathname);
    if (feature && req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, { error: 'not JSON' });
      }
      if (!user) return denied();
      if (fixed && !SCOPES[user].includes('admin')) return send(res, 403, { error: 'the admin scope is required' });
      const page = stores.pages.get(feature[1]);
      if (!page) return send(res, 404, { error: 'no such page' });
      const on = (body as { featured?: unknown } | undefined)?.featured;
      if (typeof on !== 'boolean') return send(res, 400, { error: 'featured: a boolean' });
      page.featured = on;
      return send(res, 200, page);
    }
    const m = /^\/(notes|boards|pages)(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!m) return send(res, 404, { error: 'no such path' });
    const [, kind, id] = m;
    const store = stores[kind];
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    if (!id) {
      const anonymousPage = !fixed && kind === 'pages' && req.method === 'POST';
      if (!user && !anonymousPage) return denied();
      if (req.method === 'GET' && kind !== 'pages') {
        // boards are the team's; notes are the caller's (the admin's: all), every note when buggy
        const all = [...store.values()];
        const shown = kind === 'boards' || user === 'admin' || !fixed ? all : all.filter((t) => t.owner === user);
        return send(res, 200, { [kind]: shown });
      }
      if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' });
      const why = invalid(kind, body, false);
      if (why) return send(res, 400, { error: why });
      const thing: Thing = { id: `${kind[0]}${next++}`, owner: user ?? 'nobody', ...(body as object) };
      store.set(thing.id, thing);
      return send(res, 201, thing);
    }
    const thing = store.get(id);
    const mine = !!user && (thing?.owner === user || (kind === 'notes' && user === 'admin'));
    if (req.method === 'GET') {
      if (kind === 'pages') return thing ? send(res, 200, thing) : send(res, 404, { error: 'no such page' });
      if (!user) return denied();
      // a board is every user's to read; a note its owner's (the buggy twin: anyone's with a token)
      if (!thing || (kind === 'notes' && fixed && !mine)) return send(res, 404, { error: 'no such thing' });
      return send(res, 200, thing);
    }
    if (req.method === 'PATCH' && kind !== 'pages') {
      const anonymousBug = !fixed && kind === 'notes' && !user;
      if (!user && !anonymousBug) return denied();
      if (!thing) return send(res, 404, { error: 'no such thing' });
      if (!mine && !anonymousBug) return send(res, 403, { error: 'not yours' });
      const why = invalid(kind, body, kind === 'notes');
      if (why) return send(res, 400, { error: why });
      Object.assign(thing, body);
      return send(res, 200, thing);
    }
    if (req.method === 'DELETE') {
      if (!user) return denied();
      if (!thing) return send(res, 404, { error: 'no such thing' });
      const deleteBug = !fixed && kind === 'notes';
      if (!mine && !deleteBug) return send(res, kind === 'notes' ? 404 : 403, { error: 'not yours' });
      store.delete(id);
      return send(res, 204);
    }
    return send(res, 405, { error: 'method not allowed' });
  };
  return { ...(await serveCrud(handle)), notes: stores.notes, boards: stores.boards, pages: stores.pages, log };
}
