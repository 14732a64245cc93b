// The JSON Schemas: valid draft-07 that Ajv compiles in strict mode, every key of the format
// (docs/format.md) with a description, and the example and fixture projects valid against them.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintableFiles } from '../../src/lint/files.js';
import { createAjv, readSchema, SCHEMA_FILES } from '../../src/lint/schema/ajv.js';
import { schemaIssues } from '../../src/lint/schema/issues.js';
import { AUTH_STRATEGIES, HTTP_METHODS, isCredentialName, loadProject } from '../../src/project/index.js';

type Schema = Record<string, any>;
const FILES = ['common.schema.json', ...Object.values(SCHEMA_FILES)] as string[];
const schemas: Record<string, Schema> = Object.fromEntries(FILES.map((f) => [f, readSchema(f)]));
const common = schemas['common.schema.json'];
const keys = (s: Schema) => Object.keys(s.properties ?? {});

describe('schema files', () => {
  it('are every file in schemas/', () => {
    // besides the project files' schemas, the JSON report's (test/report/run-reports.test.ts)
    expect(readdirSync(new URL('../../schemas/', import.meta.url)).sort()).toEqual([...FILES, 'run-report.schema.json'].sort());
  });

  it.each(FILES)('%s is draft-07 and valid against its meta-schema', (file) => {
    const ajv = createAjv();
    expect(schemas[file].$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(ajv.validateSchema(schemas[file]), ajv.errorsText()).toBe(true);
  });

  it.each<string>(Object.values(SCHEMA_FILES))('%s compiles with Ajv in strict mode', (file) => {
    const ajv = createAjv();
    for (const f of FILES) if (f !== file) ajv.addSchema(readSchema(f), f);
    expect(() => ajv.compile(readSchema(file))).not.toThrow();
  });
});

describe('every key of spec parts 2 and 5', () => {
  const op = schemas['resource.schema.json'].definitions.operation;
  const actor = schemas['actor.schema.json'];

  it('root, environment, actor, resource (2.2–2.5)', () => {
    expect(keys(schemas['flow.schema.json'])).toEqual(['version', 'name', 'default_environment', 'imports', 'environment', 'actors', 'resources']);
    // reqflow's own: the hosts beyond loopback that redirects and calibrate's and explore's writes may go to
    expect(keys(schemas['environment.schema.json'])).toEqual(['name', 'variables', 'redirect_hosts', 'write_hosts']);
    expect(keys(actor)).toEqual(['name', 'description', 'auth', 'session', 'inject']);
    expect(keys(actor.properties.session)).toEqual(['ttl', 'refresh']);
    expect(keys(actor.properties.session.properties.refresh)).toEqual(['method', 'path', 'body', 'extract']);
    expect(keys(actor.properties.inject)).toEqual(['headers']);
    // and reqflow's `shared` (docs/format.md#sharing)
    expect(keys(schemas['resource.schema.json'])).toEqual(['name', 'description', 'shared', 'operations']);
  });

  it('operation (2.6), extraction (2.7), retry and _provenance', () => {
    expect(keys(op).sort()).toEqual(
      [
        'method',
        'path',
        'actor',
        'depends_on',
        'headers',
        'query_params',
        'body',
        'body_form',
        'expect_status',
        'extract',
        'assert',
        'poll_until',
        'for_each',
        'force',
        'acts_on',
        'auth',
        'timeout',
        'retry',
        'pre_request',
        'post_response',
        '_provenance',
      ].sort(),
    );
    expect(keys(op.properties.retry)).toEqual(['max', 'backoff']);
    expect(keys(op.properties._provenance)).toEqual(['source', 'evidence', 'verified_against']);
    expect(keys(common.definitions.extractSource)).toEqual(['path', 'source']);
  });

  it('the keys each strategy reads (docs/format.md#authentication)', () => {
    const simple = ['method', 'path', 'headers', 'body', 'expect_status', 'extract'];
    const cc = ['token_url', 'client_id', 'client_secret', 'scope'];
    const expected: Record<string, string[]> = {
      simple,
      chain: ['steps'],
      basic: ['username', 'password'],
      api_key: ['key', 'location', 'name'],
      bearer: ['token'],
      oauth2_client_credentials: cc,
      oauth2_password: [...cc, 'username', 'password'],
      // the format's keys, plus those issue 17 adds (signature_method; jwt kid and headers)
      oauth1: ['consumer_key', 'consumer_secret', 'token', 'token_secret', 'realm', 'signature_method'],
      aws_sigv4: ['access_key', 'secret_key', 'region', 'service', 'session_token'],
      jwt: ['secret', 'payload', 'algorithm', 'kid', 'headers'],
      mtls: ['cert_path', 'key_path', 'key_password', 'ca_cert_path', 'format'],
    };
    const actual = Object.fromEntries(
      (common.definitions.auth.allOf as Schema[]).map((b) => [b.if.properties?.strategy.const ?? 'simple', keys(b.then).filter((k) => k !== 'strategy')]),
    );
    expect(actual).toEqual(expected);
    expect(keys(common.definitions.request)).toEqual(['id', ...simple]);
  });

  // A strategy is in three places of common.schema.json: the enum, its own branch, and the
  // `simple` branch's `if.not.enum`, which lists every other strategy (a strategy missing there
  // would also be read with simple's keys, and every key of its own would be "unknown").
  it('the auth branches follow AUTH_STRATEGIES: one branch each, and simple is every other strategy', () => {
    const auth = common.definitions.auth;
    expect(auth.properties.strategy.enum).toEqual([...AUTH_STRATEGIES]);
    const branches = auth.allOf as Schema[];
    const simpleBranch = branches.filter((b) => b.if.not);
    expect(simpleBranch).toHaveLength(1);
    expect(simpleBranch[0].if.not.properties.strategy.enum).toEqual(AUTH_STRATEGIES.filter((s) => s !== 'simple'));
    expect(branches.map((b) => b.if.properties?.strategy.const ?? (b.if.not ? 'simple' : '?')).sort()).toEqual([...AUTH_STRATEGIES].sort());
    // the schema states no count of strategies: the enum is the list
    expect(JSON.stringify(auth)).not.toMatch(/\b(ten|eleven|twelve|thirteen)\b/i);
  });

  it("docs/format.md's strategy table and README's strategy list name every strategy, and only those", () => {
    const doc = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    const format = doc('docs/format.md');
    const table = format.slice(format.indexOf('## Authentication'), format.indexOf('\n## ', format.indexOf('## Authentication') + 1));
    expect([...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1])).toEqual([...AUTH_STRATEGIES]);
    const readme = doc('README.md');
    const list = readme.slice(readme.indexOf('**Auth strategies**'), readme.indexOf('### Signed and certificate strategies'));
    for (const s of AUTH_STRATEGIES) expect(list).toContain(`\`${s}\``);
  });

  // A key whose value is a secret must be one project/credentials.ts knows as a credential name:
  // redaction hides it, lint warns when it is plain text, the importer writes it as a secret.
  it('every auth key that holds a secret is a credential name', () => {
    const secretKeys = (common.definitions.auth.allOf as Schema[]).flatMap((b) =>
      Object.entries((b.then.properties ?? {}) as Record<string, Schema | true>)
        .filter(([, v]) => v !== true && /!secret NAME/.test(String(v.description)))
        .map(([k]) => k),
    );
    expect(secretKeys.length).toBeGreaterThan(10);
    expect(secretKeys.filter((k) => !isCredentialName(k))).toEqual([]);
  });

  it('enums: strategy, method, api_key location', () => {
    expect(common.definitions.auth.properties.strategy.enum).toEqual([...AUTH_STRATEGIES]);
    expect(common.definitions.method.anyOf[0].enum).toEqual([...HTTP_METHODS]);
    const apiKey = (common.definitions.auth.allOf as Schema[]).find((b) => b.if.properties?.strategy.const === 'api_key')!;
    expect(apiKey.then.properties.location.enum).toEqual(['header', 'query', 'cookie']);
  });

  it('every property has a description (editors show it)', () => {
    const missing: string[] = [];
    const resolve = (s: Schema): Schema => {
      if (typeof s.$ref !== 'string') return s;
      const [file, pointer] = s.$ref.split('#');
      let target: any = schemas[file] ?? common;
      for (const seg of (pointer ?? '').split('/').filter(Boolean)) target = target[seg];
      return target;
    };
    const visit = (s: unknown, at: string) => {
      if (typeof s !== 'object' || s === null) return;
      for (const [k, v] of Object.entries((s as Schema).properties ?? {})) {
        if (v !== true && !(v as Schema).description && !resolve(v as Schema).description) missing.push(`${at}/${k}`);
      }
      // `if` conditions select a branch; they are not keys anyone writes.
      for (const [k, v] of Object.entries(s)) if (k !== 'if') visit(v, `${at}/${k}`);
    };
    for (const f of FILES) visit(schemas[f], f);
    expect(missing).toEqual([]);
  });
});

describe('projects against the schemas', () => {
  it.each([['example-project'], ['examples/redmine'], ['test/fixtures/lint/clean']])('%s has no schema issue', async (dir) => {
    const project = await loadProject(new URL(`../../${dir}`, import.meta.url).pathname);
    const files = lintableFiles(project);
    expect(files.length).toBeGreaterThan(3);
    expect(files.flatMap((f) => schemaIssues(f).map((i) => `${f.path}: ${i.message}`))).toEqual([]);
  });

  it('test/fixtures/lint/broken has schema issues (the check can fail)', async () => {
    const project = await loadProject(new URL('../fixtures/lint/broken', import.meta.url).pathname);
    expect(lintableFiles(project).flatMap((f) => schemaIssues(f)).length).toBeGreaterThan(5);
  });
});
