// A credential placeholder under another path word (`/invite/{token}/validate`), bound by the
// import to the one credential a create issues when that create's own answer ties the word to
// it: a field whose example is a URL carrying `?invite=<the credential's example>` (or
// `/accept/<example>`). Never from the name alone, never for a write there (a signup makes a
// user the clean-up could not name) unless it is a create of a resource the run removes
// (answer-create.test.ts). Then the real CLI runs the read with the run's own
// credential, which no output shows, and the clean-up removes what the run made.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportResult } from '../../src/import/index.js';
import { ANSWERED, jsonBody, send, type CrudServer } from '../helpers/crud-api.js';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';
import { BUILT, builtFlow, everyReport, importedApi, operation, runWithEveryReport } from './helpers.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const body = (properties: Record<string, object>) => ({
  requestBody: { required: true, ...json({ type: 'object', required: Object.keys(properties), properties }) },
});
const answer = (status: string, schema: object) => ({ responses: { [status]: { description: 'the answer', ...json(schema) } } });
const empty = { responses: { '200': { description: 'This response has no body.' } } };
const str = (example?: string) => ({ type: 'string', ...(example ? { example } : {}) });
const issued = (url: string) => ({
  type: 'object',
  properties: { secret: str('a3c84b25409ea8ca1782ef17f94a42fc'), url: str(url), name: str() },
});
const EX = 'a3c84b25409ea8ca1782ef17f94a42fc';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'links', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    // the answer's url carries `invite` as a query key whose value is the secret's example
    // (its expiry has no example: the import sends `{{$.now}}`, past by the time a read comes)
    '/api/invite-links': {
      post: {
        ...body({ name: str('team'), expiresAt: { type: 'string', format: 'date-time' } }),
        ...answer('201', issued(`https://example.com/app/new-user?invite=${EX}`)),
      },
    },
    '/api/invite-links/{token}': { parameters: [param('token')], delete: empty },
    '/invite/{token}/validate': { parameters: [param('token')], get: empty },
    // a write there makes a user the clean-up would not know: left to the user
    '/invite/{token}/signup': {
      parameters: [param('token')],
      post: { ...body({ email: str('jo@example.com') }), ...answer('200', { type: 'object', properties: { id: { type: 'integer' } } }) },
    },
    // the tie as a path segment: `/accept/<example>`
    '/api/passes': { post: { ...body({ name: str('guest') }), ...answer('201', issued(`https://example.com/accept/${EX}`)) } },
    '/accept/{token}': { parameters: [param('token')], get: empty },
    // a URL with another value under the word: no tie
    '/api/shares': {
      post: {
        ...body({ name: str('s') }),
        ...answer('201', { type: 'object', properties: { secret: str(EX), url: str('https://example.com/?share=other-value-123') } }),
      },
    },
    '/share/{token}': { parameters: [param('token')], get: empty },
    // a credential and a word, nothing tying them: the name alone binds nothing
    '/join/{token}': { parameters: [param('token')], get: empty },
  },
};

interface Store {
  /** secret -> expiry */
  links: Map<string, number>;
  issued: string[];
  log: string[];
}

function handler(store: Store) {
  return (req: IncomingMessage, res: ServerResponse, text: string) => {
    const b = jsonBody(req, res, text) as Record<string, unknown> | undefined | typeof ANSWERED;
    if (b === ANSWERED) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const seg = url.pathname.split('/').slice(1).map(decodeURIComponent);
    store.log.push(`${req.method} ${url.pathname}`);
    if (req.method === 'POST' && url.pathname === '/api/invite-links') {
      const secret = `inv-${randomBytes(12).toString('hex')}`;
      store.links.set(secret, Date.parse(String(b?.expiresAt)));
      store.issued.push(secret);
      return send(res, 201, { secret, url: `http://127.0.0.1/app/new-user?invite=${secret}`, name: b?.name });
    }
    if (req.method === 'DELETE' && seg[0] === 'api' && seg[1] === 'invite-links' && seg.length === 3) return send(res, store.links.delete(seg[2]) ? 200 : 404);
    // an unknown, removed or expired link is refused with no word of why, as a server refuses an invitation
    if (req.method === 'GET' && seg[0] === 'invite' && seg[2] === 'validate' && seg.length === 3)
      return (store.links.get(seg[1]) ?? 0) > Date.now() ? send(res, 200) : send(res, 400);
    return send(res, 404, { error: 'no route' });
  };
}

let result: ImportResult;
let dir: string;
let server: CrudServer;
const store: Store = { links: new Map(), issued: [], log: [] };

importedApi('api.json', DOC, handler(store), (api) => ({ result, dir, server } = api));

describe('the import: a credential under another word, tied by the create’s own answer', () => {
  it('binds {token} of /invite/{token}/validate to the secret whose example the answer’s url carries as ?invite=', () => {
    const validate = operation(result, 'invite.validate');
    expect(validate.path).toMatch(/^\/invite\/\{\{invite_link\.secret\}\}\/validate$/);
    expect(validate._provenance).toMatchObject({
      evidence: {
        'path.token': expect.stringMatching(
          /^\{token\} of GET \/invite\/\{token\}\/validate is a credential named right under \/invite; invite_link\.create \(POST \/api\/invite-links\) issues one credential in its answer, secret, and its answer's url example "https:\/\/example\.com\/app\/new-user\?invite=<secret>" carries that field's example as the value of its query key invite \(api\.json #\/paths\/~1api~1invite-links\/post\/responses\/201\)$/,
        ),
      },
    });
  });

  it('quotes no credential: the secret’s example is named, not shown', () => {
    expect(JSON.stringify(result.files.map((f) => f.doc.toJS()))).not.toContain(EX);
  });

  it('as a path segment: /accept/<example>', () => {
    expect(operation(result, 'accept.get').path).toMatch(/^\/accept\/\{\{pass\.secret\}\}$/);
    expect(JSON.stringify(operation(result, 'accept.get')._provenance)).toContain('the path segment after /accept');
  });

  it('a write there stays the user’s to give: what it makes, the clean-up would not know', () => {
    expect(operation(result, 'invite.signup').path).toBe('/invite/{{env.token}}/signup');
  });

  it('no tie, no binding: another value under the word, or the name alone', () => {
    expect(operation(result, 'share.get').path).toBe('/share/{{env.token}}');
    expect(operation(result, 'join.get').path).toBe('/join/{{env.token}}');
  });
});

describeWhenAvailable('node bin/flow.js run on the API', BUILT ? undefined : NOT_BUILT, () => {
  it('validates the run’s own invitation, removes it after, and shows its secret nowhere', async () => {
    const flow = (args: string[]) => builtFlow(dir, args);
    expect((await flow(['import', 'api.json', '--out', 'project'])).code).toBe(0);
    // the link made with `expiresAt: {{$.now}}` has expired when the read comes: a 400 with no
    // word of why, to a GET with no body; calibrate moves the create's date a day ahead
    const cal = await flow(['calibrate', '-p', 'project', '--writes', '--destructive', '--apply', '--var', `baseUrl=${server.url}`]);
    expect(cal.stdout).toContain('add `body.expiresAt: "{{$.now + 1d}}"`');
    expect(cal.stdout).toMatch(
      /answered 400 to a request with no body, and what its path names was made with `expiresAt` of invite_link\.create holding a date that has passed; then 200/,
    );
    for (const secret of store.issued) expect(cal.stdout + cal.stderr).not.toContain(secret);
    expect(store.links.size).toBe(0);
    store.issued.length = 0;
    store.log.length = 0;
    const r = await flow(runWithEveryReport(['invite.validate'], server.url));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(await readFile(path.join(dir, 'out/run.json'), 'utf8')) as { operations: Array<{ id: string; status: string }> };
    expect(Object.fromEntries(report.operations.map((o) => [o.id, o.status]))).toMatchObject({
      'invite_link.create': 'passed',
      'invite.validate': 'passed',
    });
    const [mine] = store.issued;
    expect(store.issued).toHaveLength(1);
    expect(store.log).toContain(`GET /invite/${mine}/validate`);
    // the clean-up removed the run's link by its secret; nothing signed up
    expect(store.log).toContain(`DELETE /api/invite-links/${mine}`);
    expect(store.links.size).toBe(0);
    expect(store.log.filter((l) => l.includes('/signup'))).toEqual([]);
    expect(r.stdout).toContain('/invite/***/validate');
    for (const text of await everyReport(dir, r)) expect(text).not.toContain(mine);
  }, 60_000);
});
