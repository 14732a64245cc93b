// Path placeholders that no answer returns under their own name, bound by the import to what
// does name them: a credential the collection's create issues (`/tokens/{token}` after a create
// that answers `secret`); a field of that very name that one other resource extracts
// (`{appName}`); the create's `feedbackId` for `{id}` when its answer has no `id`. Then the real CLI runs them against an in-repo server: the writes reach
// the run's own token, the clean-up has nothing left to remove, and the credential is in no output.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTarget } from '../../src/graph/index.js';
import type { ImportResult } from '../../src/import/index.js';
import { openProject } from '../../src/open/index.js';
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
const tokenSchema = { type: 'object', required: ['secret', 'tokenName'], properties: { secret: str(), tokenName: str(), createdAt: str() } };

const DOC = {
  openapi: '3.0.3',
  info: { title: 'tokens', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    '/api/tokens': {
      get: answer('200', { type: 'object', properties: { tokens: { type: 'array', items: { type: 'object', properties: { tokenName: str() } } } } }),
      post: { ...body({ tokenName: str('ci') }), ...answer('201', tokenSchema) },
    },
    '/api/tokens/{token}': {
      parameters: [param('token')],
      put: { ...body({ expiresAt: str('2030-01-01T00:00:00Z') }), ...empty },
      delete: empty,
    },
    '/api/projects': { post: { ...body({ name: str('web') }), ...answer('201', { type: 'object', properties: { id: str(), name: str() } }) } },
    '/api/projects/{projectId}': { parameters: [param('projectId')], delete: empty },
    '/api/projects/{projectId}/tokens': { parameters: [param('projectId')], post: { ...body({ tokenName: str('deploy') }), ...answer('201', tokenSchema) } },
    '/api/projects/{projectId}/tokens/{token}': { parameters: [param('projectId'), param('token')], delete: empty },
    // two credentials in the answer: which one the path takes, it does not say
    '/api/grants': {
      post: { ...body({ user: str('jo') }), ...answer('201', { type: 'object', properties: { clientSecret: str(), registrationToken: str() } }) },
    },
    '/api/grants/{grantToken}': { parameters: [param('grantToken')], delete: empty },
    '/api/metrics/applications': {
      get: answer('200', { type: 'object', properties: { applications: { type: 'array', items: { type: 'object', properties: { appName: str() } } } } }),
    },
    '/api/metrics/applications/{appName}': { parameters: [param('appName')], get: answer('200', { type: 'object', properties: { appName: str() } }) },
    // `appName` is a field of one other resource, the application
    '/api/metrics/instances/{appName}/usage': {
      parameters: [param('appName')],
      get: answer('200', { type: 'object', properties: { count: { type: 'integer' } } }),
    },
    // the create sends and answers `feedbackId`, and no `id`
    '/api/feedback': {
      post: { ...body({ feedbackId: str('pnps') }), ...answer('200', { type: 'object', properties: { feedbackId: str(), userId: { type: 'integer' } } }) },
    },
    '/api/feedback/{id}': { parameters: [param('id')], put: { ...body({ given: str('2030-01-01T00:00:00Z') }), ...empty }, delete: empty },
    // another resource's id is not the vote's
    '/api/votes': { post: { ...body({ choice: str('yes') }), ...answer('201', { type: 'object', properties: { pollId: str() } }) } },
    '/api/votes/{id}': { parameters: [param('id')], delete: empty },
    '/api/teams': {
      get: answer('200', { type: 'object', properties: { teams: { type: 'array', items: { type: 'object', properties: { name: str() } } } } }),
    },
    '/api/teams/{name}': { parameters: [param('name')], get: answer('200', { type: 'object', properties: { name: str() } }) },
    // a bare `name` is every resource's: it names no one of them
    '/api/labels/{name}/usage': { parameters: [param('name')], get: answer('200', { type: 'object', properties: { count: { type: 'integer' } } }) },
  },
};

interface Token {
  secret: string;
  tokenName: string;
  project?: string;
  expiresAt?: string;
}

interface Store {
  tokens: Token[];
  projects: Set<string>;
  feedback: Map<string, string>;
  issued: string[];
  log: string[];
}

/** The secret of each token it makes is new and random: the one value no output may show. */
function handler(store: Store) {
  let seq = 0;
  const issue = (tokenName: string, project?: string) => {
    const t: Token = { secret: `s3cr3t-${randomBytes(12).toString('hex')}`, tokenName, ...(project ? { project } : {}) };
    store.tokens.push(t);
    store.issued.push(t.secret);
    return { secret: t.secret, tokenName, createdAt: new Date().toISOString() };
  };
  const remove = (secret: string, project?: string): boolean => {
    const i = store.tokens.findIndex((t) => t.secret === secret && t.project === project);
    if (i >= 0) store.tokens.splice(i, 1);
    return i >= 0;
  };
  return (req: IncomingMessage, res: ServerResponse, text: string) => {
    const b = jsonBody(req, res, text) as Record<string, unknown> | undefined | typeof ANSWERED;
    if (b === ANSWERED) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const seg = url.pathname.split('/').slice(2).map(decodeURIComponent);
    store.log.push(`${req.method} ${url.pathname}`);
    const m = req.method;
    const sent = (k: string): string => (typeof b?.[k] === 'string' ? b[k] : '');
    if (seg[0] === 'tokens') {
      if (seg.length === 1 && m === 'GET') return send(res, 200, { tokens: store.tokens.map((t) => ({ tokenName: t.tokenName })) });
      if (seg.length === 1 && m === 'POST') return send(res, 201, issue(sent('tokenName')));
      const t = store.tokens.find((x) => x.secret === seg[1] && x.project === undefined);
      if (!t) return send(res, 404, { error: 'no such token' });
      if (m === 'PUT') return ((t.expiresAt = sent('expiresAt')), send(res, 200));
      if (m === 'DELETE') return (remove(seg[1]), send(res, 200));
    }
    if (seg[0] === 'projects') {
      if (seg.length === 1 && m === 'POST') {
        const id = `p${++seq}`;
        store.projects.add(id);
        return send(res, 201, { id, name: sent('name') });
      }
      if (!store.projects.has(seg[1])) return send(res, 404, { error: 'no such project' });
      if (seg.length === 2 && m === 'DELETE') return (store.projects.delete(seg[1]), send(res, 200));
      if (seg.length === 3 && seg[2] === 'tokens' && m === 'POST') return send(res, 201, issue(sent('tokenName'), seg[1]));
      if (seg.length === 4 && seg[2] === 'tokens' && m === 'DELETE') return send(res, remove(seg[3], seg[1]) ? 200 : 404);
    }
    if (seg[0] === 'feedback') {
      if (seg.length === 1 && m === 'POST') return (store.feedback.set(sent('feedbackId'), ''), send(res, 200, { feedbackId: sent('feedbackId'), userId: 1 }));
      if (!store.feedback.has(seg[1])) return send(res, 404, { error: 'no such feedback' });
      if (m === 'PUT') return (store.feedback.set(seg[1], sent('given')), send(res, 200));
      if (m === 'DELETE') return (store.feedback.delete(seg[1]), send(res, 200));
    }
    if (seg[0] === 'metrics' && m === 'GET') {
      if (seg.length === 2 && seg[1] === 'applications') return send(res, 200, { applications: [{ appName: 'web-app' }] });
      if (seg.length === 4 && seg[1] === 'instances' && seg[3] === 'usage')
        return seg[2] === 'web-app' ? send(res, 200, { count: 3 }) : send(res, 404, { error: 'no such app' });
    }
    return send(res, 404, { error: 'no route' });
  };
}

let result: ImportResult;
let dir: string;
let server: CrudServer;
const store: Store = { tokens: [], projects: new Set(), feedback: new Map(), issued: [], log: [] };

importedApi('api.json', DOC, handler(store), (api) => ({ result, dir, server } = api));

describe('the import: a placeholder that is the credential its create issues', () => {
  it('binds {token} under /tokens to the secret the create answers, at the top and under a project', () => {
    expect(operation(result, 'token.update').path).toBe('/api/tokens/{{token.secret}}');
    expect(operation(result, 'token.delete').path).toBe('/api/tokens/{{token.secret}}');
    expect(operation(result, 'token.create').extract).toEqual({ secret: '$.data.secret' });
    const scoped = operation(result, 'token.delete_of_project');
    expect(scoped.path).toBe('/api/projects/{{project.id}}/tokens/{{token.secret_2}}');
    expect(operation(result, 'token.create_of_project').extract).toEqual({ secret_2: '$.data.secret' });
    expect(operation(result, 'token.delete')._provenance).toMatchObject({
      evidence: {
        'path.token': expect.stringMatching(
          /^\{token\} of PUT \/api\/tokens\/\{token\} is a credential named right under \/tokens; token\.create \(POST \/api\/tokens\), the create of that collection, issues one credential in its answer, secret \(api\.json #\/paths\/~1api~1tokens\/post\/responses\/201/,
        ),
      },
    });
  });

  it('an answer with two credentials names none: the placeholder stays the user’s to give', () => {
    expect(operation(result, 'grant.delete').path).toBe('/api/grants/{{env.grant_token}}');
  });
});

describe('the import: a placeholder spelt as a field one other resource extracts', () => {
  it('binds {appName} under /instances to the appName the application resource extracts', () => {
    expect(operation(result, 'application.get').path).toBe('/api/metrics/applications/{{application.appName}}');
    const usage = operation(result, 'instance.usage');
    expect(usage.path).toBe('/api/metrics/instances/{{application.appName}}/usage');
    expect(usage._provenance).toMatchObject({
      evidence: {
        'path.appName': expect.stringMatching(
          /^\{appName\} of GET \/api\/metrics\/instances\/\{appName\}\/usage is spelt as the field appName that application\.list \(GET \/api\/metrics\/applications\) extracts, and no other resource extracts a field of that name \(\{appName\} follows \/applications/,
        ),
      },
    });
  });

  it('not a bare name, which every resource has', () => {
    expect(operation(result, 'team.get').path).toBe('/api/teams/{{team.name}}');
    expect(operation(result, 'label.usage').path).toBe('/api/labels/{{env.label_name}}/usage');
  });
});

describe('the import: {id} of a resource whose create answers <resource>Id and no id', () => {
  it('binds {id} under /feedback to the feedbackId the create answers', () => {
    expect(operation(result, 'feedback.create').extract).toEqual({ feedbackId: '$.data.feedbackId' });
    const update = operation(result, 'feedback.update');
    expect(update.path).toBe('/api/feedback/{{feedback.feedbackId}}');
    expect(update._provenance).toMatchObject({
      evidence: {
        'path.id': expect.stringMatching(
          /^\{id\} follows \/feedback in PUT \/api\/feedback\/\{id\}, so it names a feedback; feedback\.create \(POST \/api\/feedback\) returns feedbackId \(api\.json #\/paths\/~1api~1feedback\/post\/responses\/200/,
        ),
      },
    });
  });

  it('not another resource’s id: {id} of a vote whose create answers pollId stays the user’s', () => {
    expect(operation(result, 'vote.delete').path).toBe('/api/votes/{{env.vote_id}}');
  });
});

describeWhenAvailable('node bin/flow.js run on the API', BUILT ? undefined : NOT_BUILT, () => {
  it('writes only to the run’s own tokens (by their secret) and feedback, reads the listed application, leaves nothing, and shows no secret', async () => {
    const flow = (args: string[]) => builtFlow(dir, args);
    expect((await flow(['import', 'api.json', '--out', 'project'])).code).toBe(0);
    // each write acts on an instance of its create, by the field the create extracts (docs/format.md#ownership)
    const { project, graph } = await openProject(path.join(dir, 'project'));
    const target = (id: string) => writeTarget(graph!, project.operations.get(id)!);
    expect(target('token.update')).toEqual({ kind: 'instance', resource: 'token', field: 'secret' });
    expect(target('token.delete_of_project')).toEqual({ kind: 'instance', resource: 'token', field: 'secret_2' });
    expect(target('feedback.update')).toEqual({ kind: 'instance', resource: 'feedback', field: 'feedbackId' });
    store.tokens.push({ secret: 'their-secret-token', tokenName: 'theirs' });
    const ops = ['token.update', 'token.delete', 'token.delete_of_project', 'instance.usage', 'feedback.update'];
    const r = await flow(runWithEveryReport(ops, server.url));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(await readFile(path.join(dir, 'out/run.json'), 'utf8')) as { operations: Array<{ id: string; status: string }> };
    expect(Object.fromEntries(report.operations.map((o) => [o.id, o.status]))).toMatchObject({
      'token.create': 'passed',
      'token.update': 'passed',
      'token.delete': 'passed',
      'token.create_of_project': 'passed',
      'token.delete_of_project': 'passed',
      // a GET of the instance a list gave, named by the field the application resource extracts
      'instance.usage': 'passed',
      // the run's own feedback, by the feedbackId its create answered
      'feedback.update': 'passed',
    });
    expect(store.log).toContain('PUT /api/feedback/pnps');
    expect(store.log).toContain('GET /api/metrics/instances/web-app/usage');
    // the writes named the tokens the run made, and only those; the clean-up had none left
    const [mine, scoped] = store.issued;
    expect(store.log).toContain(`PUT /api/tokens/${mine}`);
    expect(store.log).toContain(`DELETE /api/tokens/${mine}`);
    expect(store.log.some((l) => /^DELETE \/api\/projects\/p\d+\/tokens\//.test(l) && l.endsWith(`/${scoped}`))).toBe(true);
    expect(store.tokens).toEqual([{ secret: 'their-secret-token', tokenName: 'theirs' }]);
    expect(store.log.filter((l) => l.includes('their-secret-token'))).toEqual([]);
    // (the feedback has a DELETE the run did not ask for: the clean-up's)
    expect(r.stdout).toMatch(/clean-up of what this run created: 2 deleted, 0 left\n  deleted project p1 .*\n  deleted feedback pnps /);
    expect(store.feedback.size).toBe(0);
    // no output shows a secret the server issued
    expect(store.issued).toHaveLength(2);
    const outputs = await everyReport(dir, r);
    for (const secret of store.issued) for (const text of outputs) expect(text).not.toContain(secret);
  }, 60_000);
});
