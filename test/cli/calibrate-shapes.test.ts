// `flow calibrate` on the answers real servers gave it (test/helpers/shapes-api.ts): a
// feature-flag server's JSON-pointer errors, its 415 to a write without a body, a GET that
// names a field, an empty list; an issue tracker's sentences naming a field, empty bodies
// labelled JSON, a PUT answering 204 with nothing, `.json` paths, ids reused after a delete.
// Each is read without a false diagnosis; what is proven is proposed, and the run then passes.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { SHAPES_KEY, startShapesApi } from '../helpers/shapes-api.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: TestServer;
beforeAll(async () => {
  api = await startShapesApi();
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

async function flow(cwd: string, args: string[], env: Record<string, string> = {}) {
  const rec = recordedIO({ cwd, env });
  const code = await main([...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

const ROOT = 'version: 1\nname: shapes\nimports: [environments/*.yaml, actors/*.yaml, resources/*.yaml]\n';
const ENV = 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n';

/** The feature-flag server's description: the revive body requires `features`. */
const FLAGS_OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'flags', version: '1' },
  paths: {
    '/api/admin/archive/revive': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['features'],
                properties: { features: { type: 'array', items: { type: 'string' } }, note: { type: 'string' } },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/api/admin/api-tokens': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  {
                    type: 'object',
                    required: ['type', 'tokenName'],
                    properties: {
                      type: { type: 'string', pattern: '^(client|backend|frontend)$', example: 'frontend' },
                      tokenName: { type: 'string', example: 'my-token' },
                    },
                  },
                  { type: 'object', required: ['type', 'username'], properties: { type: { type: 'string' }, username: { type: 'string' } } },
                ],
              },
            },
          },
        },
        responses: { '201': { description: 'ok' } },
      },
    },
    '/api/admin/features/{name}': {
      patch: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/patches' } } } },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/api/admin/addons': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['provider', 'enabled', 'parameters'],
                properties: {
                  provider: { type: 'string' },
                  enabled: { type: 'boolean' },
                  parameters: { type: 'object', additionalProperties: {}, example: { url: 'http://localhost:4242/webhook' } },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'ok' } },
      },
    },
    '/api/admin/tag-types/{name}': {
      put: {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { description: { type: 'string', example: 'Some tag type' }, color: { type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/edge/validate': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['tokens', 'ids'],
                properties: {
                  tokens: { type: 'array', minItems: 1, items: { type: 'string', example: 'default:development.abc' } },
                  ids: { type: 'array', items: { type: 'number' }, example: [12, 212] },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: { schemas: { patches: { type: 'array', items: { type: 'object', required: ['op', 'path'], properties: { op: { type: 'string' } } } } } },
});

describe('flow calibrate on the error shapes of a feature-flag server', () => {
  it('reads details[].path as the field, proposes a JSON body for a 415, never a body on a GET, and says nothing of an empty list', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': ENV,
      'openapi.json': FLAGS_OPENAPI,
      'resources/admin.yaml': [
        'name: admin',
        'operations:',
        '  tag_create: { method: POST, path: /api/admin/tags, body: { value: t1 }, expect_status: 201 }',
        '  revive: { method: POST, path: /api/admin/archive/revive }',
        '  profile: { path: /api/admin/user/profile }',
        '  apps: { path: /api/admin/metrics/applications, extract: { appName: "$.data.applications[*].appName" } }',
        '',
      ].join('\n'),
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply', '--openapi', 'openapi.json']);
    expect(r.stderr).toBe('');
    const report = r.stdout;
    // /body/type is the field `type` (not `property`, the word of its message)
    expect(report).toContain('add `body.type: "{{$.faker.word}}"`');
    expect(report).toMatch(/- Why: answered 400 naming `type`; then 201\n/);
    expect(report).not.toContain('`property`');
    // 415 to a POST without a body: a JSON body with the description's required field
    expect(report).toContain('### 2. admin.revive: body');
    expect(report).toContain('add `body: {"features":[]}` (sent as JSON)');
    expect(report).toMatch(/answered 415 to a POST without a body; the description requires `features`; then 200/);
    // a GET's named field is a parameter: a question, never a body
    expect(report).not.toMatch(/admin\.profile: body/);
    expect(report).toMatch(
      /\*\*admin\.profile\*\*: the server answered 400 naming field\(s\) `id`: a GET sends no body, so they are parameters: give them in `query` or the path/,
    );
    // an empty list found nothing because there is nothing
    expect(report).not.toMatch(/appName/);
    expect(report).toMatch(/- admin\.apps: `GET \/api\/admin\/metrics\/applications -> 200`/);
    const file = await readFile(path.join(dir, 'resources/admin.yaml'), 'utf8');
    expect(file).not.toMatch(/profile: \{[^}]*body/);
    const run = await flow(dir, ['run', 'admin.tag_create', 'admin.revive', 'admin.apps']);
    expect(run.stdout).toMatch(/^3 passed, 0 failed/m);
  }, 60_000);

  it('reads a body schema a $ref names, under a +json media type, as the contract check does', async () => {
    const flags = JSON.parse(FLAGS_OPENAPI) as { paths: Record<string, { post: Record<string, unknown> }>; components?: unknown };
    const revive = flags.paths['/api/admin/archive/revive'].post;
    const schema = (revive.requestBody as { content: Record<string, unknown> }).content['application/json'];
    revive.requestBody = { $ref: '#/components/requestBodies/Revive' };
    flags.components = { ...(flags.components as object), requestBodies: { Revive: { content: { 'application/vnd.flags+json': schema } } } };
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': ENV,
      'openapi.json': JSON.stringify(flags),
      'resources/admin.yaml': 'name: admin\noperations:\n  revive: { method: POST, path: /api/admin/archive/revive }\n',
    });
    const r = await flow(dir, ['calibrate', '--writes', '--openapi', 'openapi.json', 'admin.revive']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('add `body: {"features":[]}` (sent as JSON)');
    expect(r.stdout).toMatch(/the description requires `features`; then 200/);
  }, 60_000);

  it('a 4xx quoting a value made run-unique tries the literal; a 409 makes a literal run-unique', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': ENV,
      'resources/strategy.yaml': [
        'name: strategy',
        'operations:',
        '  create: { method: POST, path: /api/admin/strategies, body: { name: "flexibleRollout-{{$.uuid}}", note: "keep-{{$.uuid}}" }, extract: { id: $.data.id } }',
        '  tag: { method: POST, path: /api/admin/tags/of, body: { type: simple, value: a-tag-value }, expect_status: 201, extract: { value: $.data.tag.value } }',
        '',
      ].join('\n'),
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply']);
    expect(r.stdout).toContain('add `body.name: "flexibleRollout"`');
    expect(r.stdout).toMatch(/answered 400 quoting `name` as sent, with its run-unique part; then 200/);
    expect(r.stdout).not.toContain('body.note');
    // `type` made unique is refused (404); `value` made unique is accepted
    expect(r.stdout).toContain('add `body.value: "a-tag-value-{{$.uuid}}"`');
    expect(r.stdout).toMatch(/answered 409, and 201 with value run-unique/);
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    for (let i = 0; i < 2; i++) expect((await flow(dir, ['run', '--all'])).stdout).toMatch(/^2 passed, 0 failed/m);
    const again = await flow(dir, ['calibrate', '--writes']);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
  }, 60_000);

  it('a 415: the first of the shapes a body may take (oneOf), and a list where the body is one (a JSON Patch)', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': `${ENV}  feature: f1\n`,
      'openapi.json': FLAGS_OPENAPI,
      'resources/api.yaml': [
        'name: api',
        'operations:',
        '  token: { method: POST, path: /api/admin/api-tokens, expect_status: 201 }',
        '  patch: { method: PATCH, path: "/api/admin/features/{{env.feature}}" }',
        '',
      ].join('\n'),
    });
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply', '--openapi', 'openapi.json']);
    expect(r.stdout).toContain('add `body: {"type":"frontend","tokenName":"my-token"}` (sent as JSON)');
    expect(r.stdout).toContain('add `body: []` (sent as JSON)');
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect((await flow(dir, ['run', '--all'])).stdout).toMatch(/^2 passed, 0 failed/m);
  }, 60_000);

  it('a variable nobody gave that is only a body field: a value from the description, proposed once a 2xx proves it', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': `${ENV}  addon_enabled: <SET_VIA_--var>\n  addon_id: <SET_VIA_--var>\n`,
      'openapi.json': FLAGS_OPENAPI,
      'resources/addon.yaml': [
        'name: addon',
        'operations:',
        '  create: { method: POST, path: /api/admin/addons, body: { provider: webhook, enabled: "{{env.addon_enabled}}", parameters: {} }, expect_status: 201 }',
        '  get: { path: "/api/admin/addons/{{env.addon_id}}" }',
        '  apps: { path: /api/admin/metrics/applications }',
        '',
      ].join('\n'),
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply', '--openapi', 'openapi.json']);
    expect(r.stdout).toContain('add `body.enabled: true`');
    // the 400 after it names nothing: the description's example of the empty `parameters`
    expect(r.stdout).toContain('add `body.parameters: {"url":"http://localhost:4242/webhook"}`');
    expect(r.stdout).toMatch(/answered 400 naming no field; the description gives examples of `parameters`; then 201/);
    expect(r.stdout).toMatch(/`\{\{env\.addon_enabled\}\}` was never given \(<SET_VIA_--var>\), and with true for `enabled` it answered 201/);
    // a variable of a path is the user's to give: not run
    expect(r.stdout).toContain('- addon.get: needs --var addon_id=…');
    expect((await flow(dir, ['run', 'addon.create'])).stdout).toMatch(/^1 passed, 0 failed/m);
    const again = await flow(dir, ['calibrate', '--writes', '--openapi', 'openapi.json', 'addon.create']);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
  }, 60_000);

  it('a required list the description gives no example of: imported as a variable, proven by calibrate, green', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'segments', version: '1' },
      security: [{ key: [] }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      paths: {
        '/api/admin/segments': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['name', 'constraints'],
                    properties: {
                      name: { type: 'string', example: 'beta-users' },
                      constraints: { type: 'array', items: { type: 'object', required: ['contextName'], properties: { contextName: { type: 'string' } } } },
                    },
                  },
                },
              },
            },
            responses: {
              '201': { description: 'made', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } },
            },
          },
        },
      },
    };
    const dir = await writeProject({ 'openapi.json': JSON.stringify(doc) });
    const rec = recordedIO({ cwd: dir });
    const imported = { code: await main(['import', 'openapi.json', '--out', 'project'], rec.io), stdout: rec.out(), stderr: rec.err() };
    expect(imported.code, imported.stderr).toBe(0);
    // imported, not an open question: the list is the user's to give, and skipped until given
    expect(imported.stdout).toContain('1 of 1 operations imported');
    expect(imported.stdout).toMatch(/`segment_constraints` \| plain \| <SET_VIA_--var>: required list constraints of POST \/api\/admin\/segments/);
    const project = path.join(dir, 'project');
    const key = { FLOW_SECRET_KEY_KEY: SHAPES_KEY };
    const before = await flow(dir, ['run', '-p', project, '--all'], key);
    expect(before.stderr).toContain('env.segment_constraints is <SET_VIA_--var> and no value was given');
    const r = await flow(dir, ['calibrate', '-p', project, '--writes', '--apply', '--openapi', 'openapi.json'], key);
    expect(r.stdout).toContain('add `body.constraints: []`');
    expect((await flow(dir, ['run', '-p', project, '--all'], key)).stdout).toMatch(/^1 passed, 0 failed/m);
  }, 60_000);

  it('a 400 to a date that has passed (an old example, or {{$.now}}): the date a day ahead, proposed once a 2xx proves it', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': ENV,
      'resources/pat.yaml': [
        'name: pat',
        'operations:',
        '  create: { method: POST, path: /api/admin/user/tokens, body: { description: mine, expiresAt: "2023-04-19T08:15:14.000Z" }, expect_status: 201 }',
        '  create_now: { method: POST, path: /api/admin/user/tokens, body: { description: mine, expiresAt: "{{$.now}}" }, expect_status: 201 }',
        '',
      ].join('\n'),
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply']);
    expect(r.stdout).toMatch(/answered 400, and `expiresAt` held a date that has passed/);
    expect(r.stdout.match(/add `body\.expiresAt: "\{\{\$\.now \+ 1d\}\}"`/g)).toHaveLength(2);
    expect((await flow(dir, ['run', '--all'])).stdout).toMatch(/^2 passed, 0 failed/m);
  }, 60_000);

  it("a 5xx to a body whose ids of other resources are the description's examples: the run's own, proposed once a 2xx proves them", async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': ENV,
      'resources/rule.yaml': [
        'name: rule',
        'operations:',
        '  create: { method: POST, path: /api/admin/rules, body: { name: r }, expect_status: 201, extract: { id: $.data.id } }',
        '  attach: { method: POST, path: /api/admin/rules/attach, body: { ruleId: 15d1e20b-6310-4e17-a0c2-9fb84de3053a, segmentIds: [1, 2], note: x }, expect_status: 201 }',
        '',
      ].join('\n'),
      'resources/segment.yaml':
        'name: segment\noperations:\n  create: { method: POST, path: /api/admin/segments, body: { name: s, constraints: [] }, expect_status: 201, extract: { id: $.data.id } }\n',
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply']);
    expect(r.stdout).toMatch(
      /answered 500, and `ruleId`, `segmentIds` held a literal \(a description's example, an id from elsewhere\), which names nothing this run made; then 201/,
    );
    expect(r.stdout).toContain('add `body.ruleId: "{{rule.id}}"`');
    expect(r.stdout).toContain('add `body.segmentIds: ["{{segment.id}}"]`');
    expect((await flow(dir, ['run', '--all'])).stdout).toMatch(/^3 passed, 0 failed/m);
  }, 60_000);

  it("a 5xx to the empty body a 415 asked for: the description's examples", async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': `${ENV}  tag_type: t1\n`,
      'openapi.json': FLAGS_OPENAPI,
      'resources/tag_type.yaml': 'name: tag_type\noperations:\n  update: { method: PUT, path: "/api/admin/tag-types/{{env.tag_type}}" }\n',
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply', '--openapi', 'openapi.json']);
    expect(r.stdout).toMatch(/answered 415 to a PUT without a body; answered 500 naming no field; the description gives examples of `description`; then 200/);
    expect((await flow(dir, ['run', 'tag_type.update'])).stdout).toMatch(/^1 passed, 0 failed/m);
  }, 60_000);

  it("a list's value comes from the description: its example, or one item where minItems asks for one", async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'environments/local.yaml': ENV,
      'openapi.json': FLAGS_OPENAPI,
      'resources/edge.yaml': 'name: edge\noperations:\n  validate: { method: POST, path: /edge/validate }\n',
    });
    const r = await flow(dir, ['calibrate', '--writes', '--apply', '--openapi', 'openapi.json']);
    expect(r.stdout).toContain('add `body: {"tokens":["default:development.abc"],"ids":[12,212]}` (sent as JSON)');
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    const run = await flow(dir, ['run', 'edge.validate']);
    expect(run.stdout).toMatch(/^1 passed, 0 failed/m);
  }, 60_000);
});

const TRACKER = {
  'flow.yaml': ROOT,
  'environments/local.yaml': ENV,
  'actors/api.yaml': 'name: api\nauth:\n  strategy: api_key\n  name: X-API-Key\n  key: "{{secret.TRACKER_KEY}}"\n',
  'resources/account.yaml': 'name: account\noperations:\n  me: { path: /my/account.json }\n',
  'resources/issues.yaml': [
    'name: issue',
    'operations:',
    '  create: { method: POST, path: /issues.json, actor: api, body: { issue: { project_id: 1 } }, expect_status: 201, extract: { id: $.data.issue.id } }',
    '  get: { path: "/issues/{{issue.id}}.json", actor: api }',
    '  update: { method: PUT, path: "/issues/{{issue.id}}.json", actor: api, body: { issue: { subject: renamed } }, expect_status: 204 }',
    '  delete: { method: DELETE, path: "/issues/{{issue.id}}.json", actor: api, expect_status: 204 }',
    '  orphan: { path: "/issues/{{env.issue_id}}.json", actor: api }',
    '',
  ].join('\n'),
};

describe('flow calibrate on an issue tracker (a hand-written project, no description)', () => {
  it('sentences name the field, empty 401/404 bodies are read as what they are, a 204 PUT and `.json` paths pass, reused ids run twice', async () => {
    const dir = await writeProject({ ...TRACKER, 'environments/local.yaml': `${ENV}  issue_id: "999"\n` });
    const env = { FLOW_SECRET_TRACKER_KEY: SHAPES_KEY };
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply'], env);
    expect(r.stderr).toBe('');
    const report = r.stdout;
    // "Subject cannot be blank": the field inside the body's wrapper, as the server reads it
    expect(report).toContain('add `body.issue.subject: "{{$.faker.word}}"`');
    expect(report).toMatch(/answered 422 naming `issue\.subject`; then 201/);
    // an empty 401 labelled JSON: the actor the project has
    expect(report).toContain('### 1. account.me: actor');
    // an empty 404 on an id given from outside: linked to the create of `/issues.json`
    expect(report).toContain('`{{env.issue_id}}` -> `{{issue.id}}` in `path`');
    expect(report).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    expect(await readFile(path.join(dir, 'resources/issues.yaml'), 'utf8')).toContain('path: "/issues/{{issue.id}}.json"');
    // ids reused after the delete: a second run gets the same id again and passes
    for (let i = 0; i < 2; i++) {
      const run = await flow(dir, ['run', '--all'], env);
      expect(run.stdout).toMatch(/^6 passed, 0 failed/m);
    }
    const again = await flow(dir, ['calibrate', '--writes', '--destructive'], env);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    expect(again.stdout).toContain('## Open questions\n\nNone.');
  }, 60_000);

  it("an actor's secret not given: E_SECRET_MISSING, as flow run says, not its credentials", async () => {
    const dir = await writeProject(TRACKER);
    const r = await flow(dir, ['calibrate', 'account.me']);
    expect(r.stdout).toMatch(
      /\*\*account\.me\*\*: answered 401 without an actor, and its actor\(s\) could not be tried: api: E_SECRET_MISSING \(.*FLOW_SECRET_TRACKER_KEY/,
    );
    expect(r.stdout).not.toContain('need a look');
    expect(r.code).toBe(1);
  });

  it('a 403 or 404 whose path holds an id nobody produced names the id and its producer, not the login', async () => {
    const dir = await writeProject({ ...TRACKER, 'environments/local.yaml': `${ENV}  issue_id: "999"\n` });
    api.route('GET /issues/998.json', (_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json', 'content-length': 0 });
      res.end();
    });
    const file = path.join(dir, 'resources/issues.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(
        'issue_id}}.json", actor: api }',
        'issue_id}}.json", actor: api }\n  refused: { path: "/issues/{{env.other_id}}.json", actor: api }',
      ),
    );
    const r = await flow(dir, ['calibrate', 'issue.orphan', 'issue.refused', '--var', 'other_id=998'], { FLOW_SECRET_TRACKER_KEY: SHAPES_KEY });
    expect(r.stdout).toMatch(
      /\*\*issue\.refused\*\*: answered 403 where success is expected: its path holds an id no operation of this run produced.*`\{\{env\.other_id\}\}` is given from outside \(env\.other_id\); issue\.create \(POST \/issues\.json\) creates it/,
    );
    expect(r.stdout).toMatch(
      /\*\*issue\.orphan\*\*: answered 404 where success is expected: a resource of its path is missing\. `\{\{env\.issue_id\}\}` is given from outside \(env\.issue_id\); issue\.create \(POST \/issues\.json\) creates it/,
    );
    expect(r.stdout).not.toMatch(/permissions need a look|needs a login/);
  });

  it('a 401 to an actor whose credentials other operations got past asks for a credential of the request, not the login', async () => {
    const dir = await writeProject({
      ...TRACKER,
      'resources/reset.yaml': 'name: reset\noperations:\n  validate: { path: /auth/reset/validate, actor: api }\n',
    });
    api.route('GET /auth/reset/validate', (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'InvalidTokenError', message: 'Token was not valid' }));
    });
    const env = { FLOW_SECRET_TRACKER_KEY: SHAPES_KEY };
    const r = await flow(dir, ['calibrate', '--writes', 'issue.get', 'reset.validate'], env);
    expect(r.stdout).toContain(
      '**reset.validate**: answered 401 as api, saying "Token was not valid", whose credentials 2 other operation(s) got past this round: it wants a credential of its own',
    );
    expect(r.stdout).not.toContain('permissions need a look');
    // alone, nothing shows the actor's credentials work: they are the first suspect
    const alone = await flow(dir, ['calibrate', 'reset.validate'], env);
    expect(alone.stdout).toContain("**reset.validate**: answered 401 as api: the actor's credentials or permissions need a look");
  });

  it('a 403 about the request itself, as every actor, is said so; one about a permission stays a question of the credentials', async () => {
    const dir = await writeProject({
      ...TRACKER,
      'resources/variant.yaml': [
        'name: variant',
        'operations:',
        '  put: { method: PUT, path: /api/admin/variants, actor: api, body: { name: v } }',
        '  locked: { method: PUT, path: /api/admin/locked, actor: api, body: { name: v } }',
        '',
      ].join('\n'),
    });
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', 'variant.put', 'variant.locked'], { FLOW_SECRET_TRACKER_KEY: SHAPES_KEY });
    expect(r.stdout).toContain(
      '**variant.put**: answered 403 as api, saying "Environment variants deprecated for feature: f1. Use strategy variants instead.": the server refuses the request itself',
    );
    expect(r.stdout).toMatch(/\*\*variant\.locked\*\*: answered 403 as api.*: the actor's credentials or permissions need a look/);
  });
});
