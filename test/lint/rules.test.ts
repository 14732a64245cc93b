// One table per structural rule: projects that break it (with the exact positions reported)
// and projects that keep it (nothing of that code). Each case is linted with every rule, so a
// case also proves that no other rule reports the same problem under another code.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanProjects } from '../helpers/project.js';
import { lintFiles, op, ROOT, runTables, y, type CodeTable } from './helpers.js';

const TABLES: CodeTable[] = [
  {
    code: 'E_SCHEMA',
    breaks: [
      {
        name: 'expect_status as a string',
        files: op('path: /x', 'expect_status: "201"'),
        expect: ['resources/r.yaml:4:20'],
        message: /^expect_status must be an integer or a sequence of integers$/,
      },
      {
        name: 'a status that is not an integer',
        files: op('path: /x', 'expect_status: [200, ok]'),
        expect: ['resources/r.yaml:4:26'],
        message: /expect_status\[1\] must be an integer/,
      },
      { name: 'timeout as text', files: op('path: /x', 'timeout: fast'), expect: ['resources/r.yaml:4:14'], message: /timeout must be an integer/ },
      { name: 'negative retry.max', files: op('path: /x', 'retry: {max: -1}'), expect: ['resources/r.yaml:4:18'], message: /max must be at least 0/ },
      {
        name: 'an operation that is not a map',
        files: { 'resources/r.yaml': y('operations:', '  create: /x') },
        expect: ['resources/r.yaml:2:11'],
        message: /create must be a map/,
      },
      { name: 'an operation without path', files: op('method: GET'), expect: ['resources/r.yaml:2:3'], message: /create is missing the required key "path"/ },
      { name: 'path without leading slash', files: op('path: orders'), expect: ['resources/r.yaml:3:11'], message: /path must begin with "\/"/ },
      { name: 'session.ttl not a duration', files: { 'actors/a.yaml': y('session:', '  ttl: soon') }, expect: ['actors/a.yaml:2:8'], message: /duration/ },
      {
        name: 'api_key location outside the list',
        files: { 'actors/a.yaml': y('auth:', '  strategy: api_key', '  location: body') },
        expect: ['actors/a.yaml:3:13'],
        message: /header, query, cookie/,
      },
      {
        name: 'explicit extraction without path',
        files: op('path: /x', 'extract:', '  id: {source: regex}'),
        expect: ['resources/r.yaml:5:7'],
        message: /missing the required key "path"/,
      },
      {
        name: 'a chain step without id',
        files: { 'actors/a.yaml': y('auth:', '  strategy: chain', '  steps:', '    - path: /login') },
        expect: ['actors/a.yaml:4:7'],
        message: /missing the required key "id"/,
      },
      {
        name: 'a header whose value is a map',
        files: op('path: /x', 'headers:', '  X-Id: {a: 1}'),
        expect: ['resources/r.yaml:5:13'],
        message: /headers\.X-Id must be a string, a number or true or false/,
      },
      {
        name: 'imports as a string',
        files: { 'flow.yaml': y('version: 1', 'imports: resources/*.yaml') },
        expect: ['flow.yaml:2:10'],
        message: /imports must be a sequence/,
      },
      { name: 'inline environment that is a list', files: { 'flow.yaml': y('version: 1', 'environment: [a]') }, expect: ['flow.yaml:2:14'] },
      {
        name: 'a sharing access that is neither read nor write',
        files: { 'resources/r.yaml': y('shared: {access: readonly}', 'operations: {a: {path: /a}}') },
        expect: ['resources/r.yaml:1:9'],
        message: /^shared must be true or false, a map of with \(a sequence of actors\) and access \(read or write\), or a sequence of such maps$/,
      },
      {
        name: 'a sequence of grants, one of which is not a map',
        files: { 'resources/r.yaml': y('shared: [{with: [a]}, read]', 'operations: {a: {path: /a}}') },
        expect: ['resources/r.yaml:1:9'],
      },
    ],
    keeps: [
      {
        name: 'statuses as integer and list',
        files: { 'resources/r.yaml': y('operations:', '  a: {path: /a, expect_status: 200}', '  b: {path: /b, expect_status: [202, 200]}') },
      },
      // The loader reports these with their own codes: E_SCHEMA must not repeat them.
      { name: 'a bad version (E_SCHEMA_VERSION only)', files: { 'flow.yaml': y('version: 9') } },
      { name: 'a missing version (E_SCHEMA_VERSION only)', files: { 'flow.yaml': y('name: x') } },
      { name: 'an inline actor that is not a map (E_NOT_MAPPING only)', files: { 'flow.yaml': y('version: 1', 'actors:', '  a: 3') } },
      { name: 'a root that is a list (E_ROOT_NOT_MAPPING only)', files: { 'flow.yaml': y('- 1') } },
    ],
  },
  {
    code: 'W_UNKNOWN_KEY',
    breaks: [
      {
        name: 'root',
        files: { 'flow.yaml': `${ROOT}colour: blue\n` },
        expect: ['flow.yaml:6:1'],
        message: /unknown key "colour" is ignored \(known keys here: version, name/,
      },
      {
        name: 'environment',
        files: { 'environments/e.yaml': y('vars:', '  a: 1') },
        expect: ['environments/e.yaml:1:1'],
        message: /unknown key "vars" is ignored \(known keys here: name, variables, redirect_hosts, write_hosts\)/,
      },
      { name: 'actor', files: { 'actors/a.yaml': y('name: a', 'role: admin') }, expect: ['actors/a.yaml:2:1'] },
      {
        name: 'auth, per strategy (basic reads no token)',
        files: { 'actors/a.yaml': y('auth:', '  strategy: basic', '  username: u', '  token: "{{secret.T}}"') },
        expect: ['actors/a.yaml:4:3'],
        message: /known keys here: strategy, username, password/,
      },
      {
        name: 'auth of simple (no query_params in a login)',
        files: { 'actors/a.yaml': y('auth:', '  strategy: simple', '  path: /login', '  query_params: {a: 1}') },
        expect: ['actors/a.yaml:4:3'],
      },
      { name: 'session', files: { 'actors/a.yaml': y('session:', '  lifetime: 1h') }, expect: ['actors/a.yaml:2:3'] },
      {
        name: 'session.refresh (method, path, body, extract only)',
        files: { 'actors/a.yaml': y('session:', '  refresh:', '    path: /refresh', '    query_params: {a: 1}') },
        expect: ['actors/a.yaml:4:5'],
      },
      { name: 'inject', files: { 'actors/a.yaml': y('inject:', '  cookies: {a: b}') }, expect: ['actors/a.yaml:2:3'] },
      { name: 'resource', files: { 'resources/r.yaml': y('name: r', 'endpoints: {}') }, expect: ['resources/r.yaml:2:1'] },
      {
        name: 'operation (url, query, params)',
        files: op('path: /x', 'url: /x', 'query: {a: 1}', 'params: {b: 2}'),
        expect: ['resources/r.yaml:4:5', 'resources/r.yaml:5:5', 'resources/r.yaml:6:5'],
        message: /there is no "url" key/,
      },
      { name: 'retry', files: op('path: /x', 'retry: {max: 1, delay: 5}'), expect: ['resources/r.yaml:4:21'] },
      { name: '_provenance', files: op('path: /x', '_provenance: {source: ai_import, confidence: high}'), expect: ['resources/r.yaml:4:38'] },
      {
        name: 'explicit extraction',
        files: op('path: /x', 'extract:', '  id: {path: "x(\\\\d)", sorce: regex}'),
        expect: ['resources/r.yaml:5:28'],
        message: /did you mean "source"\?/,
      },
      { name: 'poll_until', files: op('path: /x', 'poll_until: {condition: "$.data.ok == true", every: 5}'), expect: ['resources/r.yaml:4:50'] },
      {
        name: 'a __proto__ key stays a key',
        files: op('path: /x', '__proto__: {path: 5}'),
        expect: ['resources/r.yaml:4:5'],
        message: /unknown key "__proto__"/,
      },
      { name: 'inline actor in the root', files: { 'flow.yaml': y('version: 1', 'actors:', '  a:', '    role: x') }, expect: ['flow.yaml:4:5'] },
    ],
    keeps: [
      {
        name: 'names chosen by the user (headers, variables, body, query_params, evidence)',
        files: {
          'environments/e.yaml': y('variables:', '  anything: 1'),
          ...op('path: /x', 'headers: {X-Any: a}', 'query_params: {any: 1}', 'body: {any: {deep: 1}}', '_provenance: {evidence: {anything: "why"}}'),
        },
      },
      {
        name: 'every key of every strategy',
        files: {
          'actors/a.yaml': y(
            'auth:',
            '  strategy: oauth2_password',
            '  token_url: https://t',
            '  client_id: c',
            '  client_secret: "{{secret.S}}"',
            '  scope: s',
            '  username: u',
            '  password: "{{secret.P}}"',
          ),
        },
      },
    ],
  },
  {
    code: 'W_UNKNOWN_STRATEGY',
    breaks: [
      {
        name: 'oauth2 alone',
        files: { 'actors/a.yaml': y('auth:', '  strategy: oauth2') },
        expect: ['actors/a.yaml:2:13'],
        message: /"oauth2" alone does not exist/,
      },
      {
        name: 'a misspelling',
        files: { 'actors/a.yaml': y('auth:', '  strategy: Bearer', '  token: "{{secret.T}}"') },
        expect: ['actors/a.yaml:2:13'],
        message: /strategy "Bearer" is unknown and is read as "simple"/,
      },
      { name: 'no strategy at all', files: { 'actors/a.yaml': y('auth:', '  path: /login') }, expect: ['actors/a.yaml:1:1'], message: /auth has no strategy/ },
      { name: 'in an operation', files: op('path: /x', 'auth: {strategy: token}'), expect: ['resources/r.yaml:4:22'] },
    ],
    keeps: [{ name: 'a known strategy', files: { 'actors/a.yaml': y('auth:', '  strategy: bearer', '  token: "{{secret.T}}"') } }],
  },
  {
    code: 'W_UNKNOWN_METHOD',
    breaks: [
      { name: 'FETCH', files: op('method: FETCH', 'path: /x'), expect: ['resources/r.yaml:3:13'], message: /method "FETCH" is unknown and is sent as GET/ },
      { name: 'a number', files: op('method: 5', 'path: /x'), expect: ['resources/r.yaml:3:13'] },
      { name: 'in a login', files: { 'actors/a.yaml': y('auth:', '  strategy: simple', '  method: SEND', '  path: /login') }, expect: ['actors/a.yaml:3:11'] },
    ],
    keeps: [
      { name: 'lower case (case is forgiven)', files: op('method: post', 'path: /x') },
      {
        name: 'every method',
        files: {
          'resources/r.yaml': y(
            'operations:',
            ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'].map((m, i) => `  o${i}: {method: ${m}, path: /x}`),
          ),
        },
      },
    ],
  },
  {
    code: 'W_NOT_SEQUENCE',
    breaks: [
      {
        name: 'depends_on as a string',
        files: { 'resources/r.yaml': y('operations:', '  a: {path: /a}', '  b:', '    path: /b', '    depends_on: r.a') },
        expect: ['resources/r.yaml:5:17'],
        message: /depends_on is not a sequence and is ignored/,
      },
      {
        name: 'assert as a string',
        files: op('path: /x', 'assert: "$.data.ok == true"'),
        expect: ['resources/r.yaml:4:13'],
        message: /assert is not a sequence/,
      },
      { name: 'depends_on as a map', files: op('path: /x', 'depends_on: {r.a: yes}'), expect: ['resources/r.yaml:4:17'] },
    ],
    keeps: [
      {
        name: 'sequences',
        files: { 'resources/r.yaml': y('operations:', '  a: {path: /a}', '  b: {path: /b, depends_on: [r.a], assert: ["$.data.ok == true"]}') },
      },
      { name: 'an empty value is W_EMPTY_KEY, not this', files: op('path: /x', 'depends_on:') },
    ],
  },
  {
    code: 'W_EMPTY_KEY',
    breaks: [
      { name: 'depends_on: []', files: op('path: /x', 'depends_on: []'), expect: ['resources/r.yaml:4:17'], message: /depends_on is empty: omit the key/ },
      { name: 'assert: []', files: op('path: /x', 'assert: []'), expect: ['resources/r.yaml:4:13'] },
      { name: 'actor: ""', files: op('path: /x', 'actor: ""'), expect: ['resources/r.yaml:4:12'], message: /omit the key for a public endpoint/ },
      { name: 'actor with no value', files: op('path: /x', 'actor:'), expect: ['resources/r.yaml:4:5'] },
      { name: 'depends_on with no value', files: op('path: /x', 'depends_on:'), expect: ['resources/r.yaml:4:5'] },
      { name: 'expect_status: []', files: op('path: /x', 'expect_status: []'), expect: ['resources/r.yaml:4:20'] },
    ],
    keeps: [{ name: 'keys omitted', files: op('path: /x') }],
  },
  {
    code: 'W_PLAINTEXT_SECRET',
    breaks: [
      {
        name: 'an environment password',
        files: { 'environments/e.yaml': y('variables:', '  adminPassword: hunter2') },
        expect: ['environments/e.yaml:2:18'],
        message: /^"adminPassword" holds a plain-text credential: write it as !secret NAME or \{\{secret\.NAME\}\}$/,
      },
      { name: 'a numeric token', files: { 'environments/e.yaml': y('variables:', '  api_token: 123456') }, expect: ['environments/e.yaml:2:14'] },
      {
        name: 'basic password and bearer token',
        files: {
          'actors/a.yaml': y('auth:', '  strategy: basic', '  username: u', '  password: s3cret'),
          'actors/b.yaml': y('auth:', '  strategy: bearer', '  token: abc.def'),
        },
        expect: ['actors/a.yaml:4:13', 'actors/b.yaml:3:10'],
      },
      {
        name: 'every credential key of spec 5',
        files: {
          'actors/a.yaml': y('auth:', '  strategy: oauth1', '  consumer_key: k', '  consumer_secret: s', '  token: t', '  token_secret: ts'),
          'actors/b.yaml': y('auth:', '  strategy: aws_sigv4', '  access_key: a', '  secret_key: s', '  session_token: t'),
          'actors/c.yaml': y('auth:', '  strategy: api_key', '  key: k'),
          'actors/d.yaml': y('auth:', '  strategy: mtls', '  key_password: p'),
          'actors/e.yaml': y('auth:', '  strategy: jwt', '  secret: s'),
          'actors/f.yaml': y('auth:', '  strategy: oauth2_client_credentials', '  client_secret: s'),
        },
        expect: [
          'actors/a.yaml:3:17',
          'actors/a.yaml:4:20',
          'actors/a.yaml:5:10',
          'actors/a.yaml:6:17',
          'actors/b.yaml:3:15',
          'actors/b.yaml:4:15',
          'actors/b.yaml:5:18',
          'actors/c.yaml:3:8',
          'actors/d.yaml:3:17',
          'actors/e.yaml:3:11',
          'actors/f.yaml:3:18',
        ],
      },
      {
        name: 'credential headers',
        files: op('path: /x', 'headers:', '  Authorization: Bearer abc', '  X-API-Key: abc'),
        expect: ['resources/r.yaml:5:22', 'resources/r.yaml:6:18'],
      },
      {
        name: 'a password in a login body',
        files: { 'actors/a.yaml': y('auth:', '  strategy: simple', '  path: /login', '  body: {user: u, password: pw}') },
        expect: ['actors/a.yaml:4:29'],
      },
      { name: 'the inline environment', files: { 'flow.yaml': y('version: 1', 'environment:', '  variables:', '    secret: x') }, expect: ['flow.yaml:4:13'] },
    ],
    keeps: [
      {
        name: '!secret, {{secret.X}}, {{env.X}} and the run-time placeholder',
        files: {
          'environments/e.yaml': y('variables:', '  password: !secret PW', '  token: <SET_VIA_--var>', '  apiKey: ""'),
          'actors/a.yaml': y('auth:', '  strategy: basic', '  username: u', '  password: "{{secret.PW}}"'),
          ...op('path: /x', 'headers:', '  Authorization: "Bearer {{env.token}}"'),
        },
      },
      {
        name: 'look-alikes that are not credentials',
        files: op(
          'path: /x',
          'headers: {Idempotency-Key: abc, X-Token-Url: https://t}',
          'extract: {token: $.data.token, refresh_token: $.data.refresh}',
          '_provenance: {evidence: {password: "the docs name it"}}',
          'assert: ["$.data.token exists"]',
        ),
      },
    ],
  },
  {
    code: 'W_BASEURL_PATH',
    breaks: [
      {
        name: 'a version prefix',
        files: { 'environments/e.yaml': y('variables:', '  baseUrl: https://api.example.test/api/v1') },
        expect: ['environments/e.yaml:2:12'],
        message: /baseUrl of environment "e" goes on past the host \("\/api\/v1"\)/,
      },
      {
        name: 'a path with a port and a trailing slash',
        files: { 'environments/e.yaml': y('variables:', '  baseUrl: http://localhost:8080/v2/') },
        expect: ['environments/e.yaml:2:12'],
      },
      {
        name: 'a query (never printed)',
        files: { 'environments/e.yaml': y('variables:', '  baseUrl: https://h.test?api_key=abc') },
        expect: ['environments/e.yaml:2:12'],
        message: /\(".*…"\)/,
      },
      {
        name: 'the inline environment',
        files: { 'flow.yaml': y('version: 1', 'environment:', '  variables: {baseUrl: "https://h.test/api"}') },
        expect: ['flow.yaml:3:24'],
      },
    ],
    keeps: [
      {
        name: 'host only, with or without a slash, placeholders',
        files: {
          'environments/a.yaml': y('variables:', '  baseUrl: https://api.example.test'),
          'environments/b.yaml': y('variables:', '  baseUrl: http://localhost:3000/'),
          'environments/c.yaml': y('variables:', '  baseUrl: <SET_VIA_--var>'),
          'environments/d.yaml': y('variables:', '  baseUrl: "{{env.host}}/api"'),
          'environments/e.yaml': y('variables:', '  baseUrl: !secret BASE_URL'),
        },
      },
    ],
  },
  {
    // spec 2.2.2: the empty project lints clean; the warning says why nothing is loaded
    code: 'W_NO_ENVIRONMENT',
    breaks: [
      {
        name: 'a flow.yaml without imports',
        files: { 'flow.yaml': y('version: 1', 'default_environment: dev') },
        expect: ['flow.yaml:2:22'],
        message: /^default_environment "dev" names no environment, and none is loaded: flow\.yaml has no imports, so no file is read$/,
      },
      {
        name: 'patterns that match nothing',
        files: {
          'flow.yaml': y('version: 1', 'default_environment: dev', 'imports:', '  - environment/*.yaml', '  - environments/*.yaml', '  - resources/*.yaml'),
          'resources/r.yaml': y('operations: {a: {path: /a}}'),
        },
        expect: ['flow.yaml:2:22'],
        message: /none is loaded: import "environment\/\*\.yaml" \(line 4\), "environments\/\*\.yaml" \(line 5\) match no file$/,
      },
    ],
    keeps: [
      {
        name: 'an environment is loaded but not that one (E_REF_UNDEFINED)',
        files: { 'flow.yaml': `${ROOT}default_environment: prod\n`, 'environments/dev.yaml': y('variables: {}') },
      },
    ],
  },
  {
    code: 'E_REF_UNDEFINED',
    breaks: [
      {
        name: 'default_environment names nothing',
        files: { 'flow.yaml': `${ROOT}default_environment: prod\n`, 'environments/dev.yaml': y('variables: {}') },
        expect: ['flow.yaml:6:22'],
        message: /default_environment "prod" names no environment \(defined: dev\)/,
      },
      {
        name: 'a resource shared with an actor that does not exist',
        files: { 'actors/alice.yaml': y('name: alice'), 'resources/r.yaml': y('shared:', '  with: [alice, bobb]', 'operations: {a: {path: /a}}') },
        expect: ['resources/r.yaml:2:17'],
        message: /^shared with "bobb", which is not an actor of this project$/,
      },
      {
        name: 'a grant of a sequence shared with an actor that does not exist',
        files: {
          'actors/alice.yaml': y('name: alice'),
          'resources/r.yaml': y('shared:', '  - with: [alice]', '  - with: [bobb]', '    access: read', 'operations: {a: {path: /a}}'),
        },
        expect: ['resources/r.yaml:3:12'],
        message: /^shared with "bobb", which is not an actor of this project$/,
      },
    ],
    keeps: [
      {
        name: 'the environment exists (by file stem or name:)',
        files: { 'flow.yaml': `${ROOT}default_environment: staging\n`, 'environments/s.yaml': y('name: staging', 'variables: {}') },
      },
      { name: 'the inline environment is "default"', files: { 'flow.yaml': y('version: 1', 'default_environment: default', 'environment: {variables: {}}') } },
      {
        name: 'a resource shared with actors that exist, or with everyone',
        files: {
          'actors/alice.yaml': y('name: alice'),
          'resources/r.yaml': y('shared: {with: [alice], access: read}', 'operations: {a: {path: /a}}'),
          'resources/s.yaml': y('shared: true', 'operations: {a: {path: /a}}'),
          'resources/t.yaml': y('shared: [{with: [alice]}, {access: read}]', 'operations: {a: {path: /a}}'),
        },
      },
    ],
  },
];

afterAll(cleanProjects);

runTables(TABLES);

describe('the clean fixture (every key of spec parts 2 and 5)', () => {
  it('has no diagnostic at all', async () => {
    const { loadProject } = await import('../../src/project/index.js');
    const { lint } = await import('../../src/lint/index.js');
    const result = lint(await loadProject(new URL('../fixtures/lint/clean', import.meta.url).pathname));
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('messages never quote a credential', () => {
  it('keeps the value out of every message', async () => {
    const { result } = await lintFiles({
      'environments/e.yaml': y('variables:', '  baseUrl: "https://h.test/p?token=TOPSECRET1"', '  password: TOPSECRET2'),
      'actors/a.yaml': y('auth:', '  strategy: TOPSECRET3x', '  password: TOPSECRET4'),
      ...op('path: /x', 'headers: {Authorization: TOPSECRET5}', 'expect_status: TOPSECRET6', 'timeout: TOPSECRET7'),
    });
    const text = result.diagnostics.map((d) => d.message).join('\n');
    expect(result.diagnostics.length).toBeGreaterThanOrEqual(6);
    // The strategy is a name, not a credential: it is quoted so the typo can be seen.
    expect(text.match(/TOPSECRET\d/g)).toEqual(['TOPSECRET3']);
  });
});

describe('under a credential key: the text of a template that does not parse is never quoted; names are', () => {
  const codes = (r: { diagnostics: Array<{ code: string }> }) => r.diagnostics.map((d) => d.code).sort();

  it('E_TEMPLATE_SYNTAX names the key, not the text', async () => {
    const { result } = await lintFiles({
      'environments/e.yaml': y('variables:', '  api_token: "{{Sup3rEnv x}}"'),
      'actors/a.yaml': y(
        'auth:',
        '  strategy: simple',
        '  path: /login',
        '  body:',
        '    password: "{{hunter2 pass}}"',
        '    creds: {client_secret: ["{{Unclosed9"]}',
      ),
    });
    expect(codes(result)).toEqual(['E_TEMPLATE_SYNTAX', 'E_TEMPLATE_SYNTAX', 'E_TEMPLATE_SYNTAX']);
    // Nowhere in the diagnostics: not in a message, not in any other field.
    expect(JSON.stringify(result.diagnostics)).not.toMatch(/Sup3r|hunter2|Unclosed9/);
    const messages = result.diagnostics.map((d) => d.message);
    expect(messages).toContain('the template under "password" is not a valid reference (its text is not quoted: "password" names a credential)');
    expect(messages.filter((m) => m.includes('under "client_secret"'))).toHaveLength(1);
  });

  it('a valid reference names its scope, variable or field, with a "did you mean": they are names, not secrets', async () => {
    const { result } = await lintFiles({
      'environments/e.yaml': y('variables:', '  password: <SET_VIA_--var>'),
      'actors/a.yaml': y('auth:', '  strategy: simple', '  path: /login', '  body: {password: "{{env.pasword}}"}'),
      'actors/b.yaml': y('auth:', '  strategy: bearer', '  token: "{{adminn.value}}"'),
      'resources/r.yaml': y(
        'operations:',
        '  create:',
        '    path: /x',
        '    headers:',
        '      Authorization: "Bearer {{root.token}}"',
        '      X-Api-Key: "{{r.create.id}}"',
        '    body: {key: "{{r.idd}}"}',
        '    extract: {id: $.data.id}',
      ),
    });
    expect(codes(result)).toEqual(['E_REF_UNDEFINED', 'E_REF_UNDEFINED', 'E_REF_UNDEFINED', 'W_ENV_NOT_DEFINED', 'W_FIELD_NOT_EXTRACTED']);
    const messages = result.diagnostics.map((d) => d.message);
    expect(messages).toContain(
      '{{env.pasword}}: no environment defines pasword (did you mean password?); give it with --var pasword=… or FLOW_VAR_pasword, or add it to an environment',
    );
    expect(messages).toContain('{{root.token}}: "root" is not an actor, a resource, env or secret');
    expect(messages).toContain('{{adminn.value}}: "adminn" is not an actor, a resource, env or secret');
    expect(messages).toContain('{{r.idd}}: no operation of r extracts "idd" (did you mean id?)');
    expect(messages.some((m) => m.startsWith('{{r.create.id}}: there is no {{resource.operation.field}} form'))).toBe(true);
  });

  it('still quotes the text under any other key, and under an owner merely named like a credential', async () => {
    const { result } = await lintFiles({
      'actors/a.yaml': y('auth:', '  strategy: simple', '  path: /login', '  body: {username: "{{Visible1 x}}"}'),
      'resources/r.yaml': y('operations:', '  refresh_token:', '    path: /x', '    body: {user: "{{Visible2.value}}"}'),
    });
    expect(codes(result)).toEqual(['E_REF_UNDEFINED', 'E_TEMPLATE_SYNTAX']);
    const text = result.diagnostics.map((d) => d.message).join('\n');
    expect(text).toContain('"Visible1 x" is not a reference');
    expect(text).toContain('{{Visible2.value}}: "Visible2" is not an actor');
  });
});
