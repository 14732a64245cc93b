// The small pure parts of the plugin: layout, options, failure messages, outcomes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test, type TestContext } from 'vitest';
import { DEFAULT_HOOK_TIMEOUT_MS } from '../../src/runtime/hooks/index.js';
import { MAX_RETRY_WAIT_MS } from '../../src/http/index.js';
import { HOOK_ALLOWANCE_MS, operationBudgetMs, RETRY_WAIT_ALLOWANCE_MS } from '../../src/vitest/budget.js';
import { assertLine, environmentError, failureError, lintError } from '../../src/vitest/failure.js';
import { suiteLayout, type LayoutOperation } from '../../src/vitest/layout.js';
import { runnerOptions, suiteOptions, validateOptions, validateSuiteOptions, withDefaults } from '../../src/vitest/options.js';
import { settle } from '../../src/vitest/outcome.js';
import { optionsFor } from '../../src/vitest/project-options.js';
import type { Operation } from '../../src/project/types.js';
import type { OperationResult } from '../../src/runner/types.js';

const REPO_FIXTURES = path.resolve(__dirname, '../fixtures/vitest');

const op = (id: string, method: LayoutOperation['method'], prerequisites: string[] = []): LayoutOperation => ({
  id,
  resource: id.split('.')[0],
  method,
  prerequisites: new Set(prerequisites),
});

describe('suiteLayout', () => {
  test('keeps the schedule order, one block per run of a resource', () => {
    const blocks = suiteLayout([
      op('product.create', 'POST'),
      op('product.publish', 'POST', ['product.create']),
      op('order.create', 'POST', ['product.create', 'product.publish']),
    ]);
    expect(blocks).toEqual([
      { resource: 'product', operations: ['product.create', 'product.publish'] },
      { resource: 'order', operations: ['order.create'] },
    ]);
  });

  test('joins an earlier block only past independent operations', () => {
    const blocks = suiteLayout([
      op('product.create', 'POST'),
      op('health.check', 'GET'),
      op('product.get', 'GET', ['product.create']), // health.check is unrelated: joins product
      op('order.create', 'POST', ['product.create']),
      op('product.rename', 'PUT', ['product.create']), // order.create reads product: stays after it
      op('product.delete', 'DELETE', ['product.create']), // DELETEs never move
    ]);
    expect(blocks.map((b) => `${b.resource}: ${b.operations.join(', ')}`)).toEqual([
      'product: product.create, product.get',
      'health: health.check',
      'order: order.create',
      'product: product.rename, product.delete',
    ]);
    // every operation still appears exactly once, after its prerequisites
    const flat = blocks.flatMap((b) => b.operations);
    expect(flat.indexOf('order.create')).toBeLessThan(flat.indexOf('product.rename'));
  });

  // A DELETE may cascade where the graph sees no edge (deleting a user deletes its sessions):
  // nothing moves past it, in either direction, even when it shares no resource with what moves.
  test('never moves an operation past a DELETE, even of an unrelated resource', () => {
    const blocks = suiteLayout([
      op('session.create', 'POST'),
      op('user.delete', 'DELETE'),
      op('session.list', 'GET'),
      op('audit.list', 'GET'),
      op('user.purge', 'DELETE'),
    ]);
    expect(blocks.map((b) => `${b.resource}: ${b.operations.join(', ')}`)).toEqual([
      'session: session.create',
      'user: user.delete',
      'session: session.list',
      'audit: audit.list',
      'user: user.purge',
    ]);
  });
});

describe('runnerOptions', () => {
  test('FLOW_ENV and FLOW_VAR_* win over the config file', () => {
    const plan = suiteOptions({ env: 'local', vars: { baseUrl: 'http://config', tenant: 'a' }, concurrency: 3, include: ['x'] });
    expect(plan).toEqual({ env: 'local', vars: { baseUrl: 'http://config', tenant: 'a' }, concurrency: 3 });
    const env = { FLOW_ENV: 'staging', FLOW_VAR_baseUrl: 'http://env', FLOW_VAR_: 'ignored', OTHER: 'x' };
    const out = runnerOptions(plan, env);
    expect(out).toMatchObject({ env: 'staging', vars: { baseUrl: 'http://env', tenant: 'a' }, concurrency: 3 });
    expect(out.processEnv).toBe(env);
    expect(runnerOptions({}, {})).toEqual({ vars: {}, processEnv: {}, skipUnset: true });
  });
});

describe('withDefaults: createFlowTest options over the plugin options', () => {
  test('its own options win; vars merge by name; nothing provided is no default', () => {
    const plugin = { env: 'staging', vars: { tenant: 'acme', region: 'eu' }, concurrency: 2 };
    expect(withDefaults({}, plugin)).toEqual(plugin);
    expect(withDefaults({ vars: { tenant: 'beta' }, concurrency: 1 }, plugin)).toEqual({
      env: 'staging',
      vars: { tenant: 'beta', region: 'eu' },
      concurrency: 1,
    });
    expect(withDefaults({ env: 'local', vars: undefined }, plugin)).toMatchObject({ env: 'local', vars: { tenant: 'acme' } });
    expect(withDefaults({ env: 'local' }, undefined)).toEqual({ env: 'local' });
    expect(withDefaults({}, undefined)).toEqual({});
  });
});

describe('validateOptions', () => {
  test('accepts the documented options', () => {
    expect(() => validateOptions({ env: 'staging', vars: { tenant: 'acme' }, concurrency: 4, include: ['apis/**/flow.yaml'] })).not.toThrow();
    expect(() => validateOptions({})).not.toThrow();
    expect(() => validateOptions(undefined)).not.toThrow();
  });

  test('an unknown key is named, with a suggestion for a misspelt one', () => {
    expect(() => validateOptions({ enviroment: 'x' })).toThrow(
      'flow(): unknown option "enviroment" (did you mean env?); the options are env, vars, concurrency, include',
    );
    expect(() => validateOptions({ concurency: 2 })).toThrow('unknown option "concurency" (did you mean concurrency?)');
    expect(() => validateOptions({ variables: {} })).toThrow('unknown option "variables" (did you mean vars?)');
    expect(() => validateOptions({ retries: 2 })).toThrow(/unknown option "retries"; the options are/);
  });

  // The options are one table in src/vitest/options.ts; the docs' options block names each of them.
  test("docs/vitest.md's options block names every option, in the table's order", () => {
    const message = (() => {
      try {
        validateOptions({ bogus: 1 });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    const names = /the options are (.*)$/.exec(message)![1].split(', ');
    expect(names).toContain('projects');
    const doc = readFileSync(path.resolve(__dirname, '../../docs/vitest.md'), 'utf8');
    const block = /## Options\n\n```ts\nflow\(\{\n([\s\S]*?)\n\}\)\n```/.exec(doc)![1];
    const documented = [...block.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]);
    expect(documented).toEqual(names);
  });

  test('explore: with openapi, a budget in seconds, a whole seed and a whole number of rounds; each problem named', () => {
    expect(() => validateOptions({ openapi: 'openapi.yaml', explore: { budget: 5, seed: 3, rounds: 2, authz: true } })).not.toThrow();
    expect(() => validateOptions({ explore: {} })).toThrow('explore needs openapi');
    expect(() => validateOptions({ openapi: 'o.yaml', explore: { budget: 0, seed: 1.5, runs: 3, authz: 'yes' } })).toThrow(
      'flow(): unknown option "explore.runs" (did you mean rounds?); the explore options are budget, seed, rounds, authz; explore.budget must be a number of seconds > 0, got 0; explore.seed must be a whole number, got 1.5; explore.authz must be true or false, got "yes"',
    );
    for (const bad of [0, -1, 1.5, Number.NaN, '2'])
      expect(() => validateOptions({ openapi: 'o.yaml', explore: { rounds: bad } }), String(bad)).toThrow(
        /^flow\(\): explore\.rounds must be a whole number > 0, got /,
      );
    expect(suiteOptions({ openapi: 'o.yaml', explore: { budget: 2 } }, '/repo')).toEqual({ openapi: '/repo/o.yaml', explore: { budget: 2 } });
    expect(suiteOptions({ openapi: 'o.yaml', explore: { budget: 60, rounds: 3 } }, '/repo').explore).toEqual({ budget: 60, rounds: 3 });
  });

  test('concurrency must be a whole number >= 1; every problem is named at once', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '2'])
      expect(() => validateOptions({ concurrency: bad }), String(bad)).toThrow(/^flow\(\): concurrency must be a whole number >= 1, got /);
    expect(() => validateOptions({ concurrency: 0, enviroment: 'x' })).toThrow(
      'flow(): unknown option "enviroment" (did you mean env?); the options are env, vars, concurrency, include, server, openapi, contract, split, explore, strict, keep, projects; concurrency must be a whole number >= 1, got 0',
    );
  });

  test('the types of env, vars and include', () => {
    expect(() => validateOptions({ env: '' })).toThrow('env must be an environment id');
    expect(() => validateOptions({ vars: { port: 8080 } })).toThrow('vars.port must be a string, got 8080');
    expect(() => validateOptions({ include: 'flow.yaml' })).toThrow('include must be an array of glob patterns');
    expect(() => validateOptions('staging')).toThrow('flow(): the options must be an object');
  });

  test('server, openapi and contract', () => {
    const server = { command: 'node api.js', url: 'http://127.0.0.1:4000/health', watch: ['api/**/*.js'], timeout: 5000, reuseExisting: true };
    expect(() => validateOptions({ server, openapi: 'openapi.yaml', contract: 'warn' })).not.toThrow();
    expect(() => validateOptions({ server: { command: 'node api.js' } })).toThrow('server needs the url (or port) it answers at');
    expect(() => validateOptions({ server: { url: 'http://x' } })).toThrow('server.command must be the command that starts the server, got undefined');
    expect(() => validateOptions({ server: { ...server, url: 'localhost:4000' } })).toThrow('server.url must be an http(s) URL, got "localhost:4000"');
    expect(() => validateOptions({ server: { ...server, reuse: true } })).toThrow('unknown option "server.reuse" (did you mean reuseExisting?)');
    expect(() => validateOptions({ server: { ...server, watch: 'api' } })).toThrow('server.watch must be an array of glob patterns');
    expect(() => validateOptions({ contract: 'error' })).toThrow("contract must be 'fail' or 'warn', got \"error\"");
    expect(() => validateOptions({ openapi: 3 })).toThrow('openapi must be the path of an OpenAPI description, got 3');
  });

  test('the Vitest root makes the description absolute, and the server origin the baseUrl (the config vars win)', () => {
    const server = { command: 'x', url: 'http://127.0.0.1:4000/health' };
    expect(suiteOptions({ server, openapi: 'api/openapi.yaml', contract: 'warn' }, '/repo')).toEqual({
      vars: { baseUrl: 'http://127.0.0.1:4000' },
      openapi: path.resolve('/repo', 'api/openapi.yaml'),
      contract: 'warn',
    });
    expect(suiteOptions({ server, vars: { baseUrl: 'http://elsewhere' } }, '/repo').vars).toEqual({ baseUrl: 'http://elsewhere' });
  });

  test('createFlowTest takes the runner options only', () => {
    expect(() => validateSuiteOptions({ env: 'a', vars: {}, concurrency: 1 })).not.toThrow();
    expect(() => validateSuiteOptions({ include: [] })).toThrow('createFlowTest(): unknown option "include"');
  });
});

describe('environmentError', () => {
  const project = { rootFile: '/repo/api/flow.yaml', environments: new Map([['local', {}]]) } as never;

  test('a project without the environment asked for: the code, the project and what it defines', () => {
    const err = environmentError(project, 'staging', '/repo')!;
    expect(err.message).toBe('E_ENV_UNDEFINED: environment "staging" is not defined in api/flow.yaml (defined: local)');
    expect(err.code).toBe('E_ENV_UNDEFINED');
    // the stack points at the project, not into reqflow
    expect(err.stack).toBe(`FlowError: ${err.message}\n    at environment (/repo/api/flow.yaml:1:1)`);
    expect(environmentError({ rootFile: '/repo/flow.yaml', environments: new Map() }, 'x', '/repo')!.message).toContain('(defined: none)');
  });

  test('nothing to say when it is defined or none was asked for', () => {
    expect(environmentError(project, 'local')).toBeUndefined();
    expect(environmentError(project, undefined)).toBeUndefined();
  });
});

const base: OperationResult = {
  operation: 'order.create',
  status: 'failed',
  loc: { file: '/p/resources/orders.yaml', line: 3, col: 3 },
  prerequisiteOf: [],
  exchanges: [
    {
      purpose: 'request',
      request: { method: 'POST', url: 'http://api/orders', headers: { authorization: '***', 'content-type': 'application/json' }, body: '{"product_id":"p1"}' },
      response: { status: 409, headers: { 'content-type': 'application/json' }, body: '{"error":"not published"}', ms: 12.4 },
    },
  ],
  extracted: {},
  asserts: [{ expr: "$.data.status == 'pending'", pass: false, actual: 'cancelled' }],
  error: { code: 'E_STATUS_MISMATCH', message: 'expected status 201, got 409', loc: { file: '/p/resources/orders.yaml', line: 12, col: 5 } },
  ms: 13,
};

describe('failure messages', () => {
  test('a failed result: code, file:line, asserts, request and response', () => {
    const err = failureError(base, '/p');
    expect(err.code).toBe('E_STATUS_MISMATCH');
    expect(err.message.split('\n')).toEqual([
      'E_STATUS_MISMATCH: expected status 201, got 409',
      '  at resources/orders.yaml:12:5 (order.create)',
      '  assert:',
      '    ✗ $.data.status == \'pending\' (actual: "cancelled")',
      '  request:',
      '    POST http://api/orders',
      '    authorization: ***',
      '    content-type: application/json',
      '    {"product_id":"p1"}',
      '  response:',
      '    409 (12 ms)',
      '    content-type: application/json',
      '    {"error":"not published"}',
    ]);
    // the stack points at the YAML, so Vitest shows its code frame
    expect(err.stack).toContain('(/p/resources/orders.yaml:12:5)');
    expect(Object.keys(err)).not.toEqual(expect.arrayContaining(['code']));
    expect(Object.keys(err)).not.toEqual(expect.arrayContaining(['loc']));
  });

  test('a failed assert says the expression and the actual value once', () => {
    const failed = {
      ...base,
      asserts: [{ expr: "$.data.tags contains 'x'", pass: false, actual: [], message: "$.data.tags contains 'x' failed (actual: [])" }],
    };
    const err = failureError({ ...failed, error: { code: 'E_ASSERT_FAILED', message: "$.data.tags contains 'x' failed (actual: [])" } }, '/p');
    expect(err.message.split('\n').slice(0, 4)).toEqual([
      "E_ASSERT_FAILED: $.data.tags contains 'x' failed (actual: [])",
      '  at resources/orders.yaml:3:3 (order.create)',
      '  assert:',
      "    ✗ $.data.tags contains 'x' (actual: [])",
    ]);
  });

  test('a failed assert line: the expression, the actual value, and the reason when there is one', () => {
    expect(assertLine({ expr: '$.data.x == 1', pass: false, message: '$.data.x == 1 failed: nothing at $.data.x', reason: 'nothing at $.data.x' })).toBe(
      '$.data.x == 1: nothing at $.data.x',
    );
    expect(assertLine({ expr: '$.data.n > 1', pass: false, actual: 'a', reason: 'cannot order "a" and 1' })).toBe(
      '$.data.n > 1 (actual: "a"): cannot order "a" and 1',
    );
    expect(assertLine({ expr: '$.a == 1', pass: false, actual: 2, message: '$.a == 1 failed (actual: 2)' })).toBe('$.a == 1 (actual: 2)');
    // what the runner records now: what was expected, and the actual value
    expect(assertLine({ expr: "$.status == 'draft'", pass: false, actual: 'published', expected: '"draft"' })).toBe(
      '$.status == \'draft\': expected "draft", actual "published"',
    );
    expect(assertLine({ expr: '$.n > 100', pass: false, actual: undefined, expected: '> 100' })).toBe('$.n > 100: expected > 100, actual nothing');
  });

  test('lint errors list every diagnostic with file:line:col', () => {
    const err = lintError(
      [
        { code: 'E_REF_UNDEFINED', severity: 'error', message: 'no scope "x"', file: '/p/flow.yaml', line: 4, col: 9 },
        { code: 'E_CYCLE', severity: 'error', message: 'a -> b -> a', file: '/p/resources/a.yaml', line: 2, col: 1 },
      ],
      '/p',
    );
    expect(err.message).toBe('E_LINT: 2 lint errors\n  flow.yaml:4:9  E_REF_UNDEFINED  no scope "x"\n  resources/a.yaml:2:1  E_CYCLE  a -> b -> a');
  });
});

describe('settle', () => {
  const ctx = () => {
    const seen: string[] = [];
    return {
      seen,
      // the form settle calls: (message, type)
      annotate: (async (message: string, type?: string) => {
        seen.push(`${type}: ${message}`);
        return { message, type: type ?? 'notice' };
      }) as TestContext['annotate'],
      skip: ((note?: string) => {
        throw new Error(`skipped: ${note}`);
      }) as never,
    };
  };

  test('passes, skips with the reason (annotated for JUnit), or throws the coded failure', async () => {
    const c = ctx();
    await expect(settle({ ...base, status: 'passed', error: undefined }, c)).resolves.toBeUndefined();
    await expect(settle({ ...base, status: 'skipped', error: undefined, skippedBecause: 'prerequisite product.create failed' }, c)).rejects.toThrow(
      'skipped: prerequisite product.create failed',
    );
    expect(c.seen).toEqual(['skipped: prerequisite product.create failed']);
    await expect(settle(base, c)).rejects.toMatchObject({ code: 'E_STATUS_MISMATCH', name: 'FlowError' });
  });
});

test('the test timeout covers timeouts, retries and polling', () => {
  const o = { timeoutMs: 1000, retry: { max: 2, backoffMs: 100 }, pollUntil: { condition: [], intervalMs: 50, maxAttempts: 4 } } as unknown as Operation;
  // 3 tries of 1000 + backoff 100+200+400 or a Retry-After of up to 60 s before each of 2 retries, then 4 polls of (1000 + 50)
  expect(operationBudgetMs(o)).toBe(3000 + 700 + 2 * 60_000 + 4200);
  // hooks: pre_request before each of the 5 exchanges (1 + 4 polls), post_response once; 5 s each
  const hooked = { ...o, preRequest: './sign.js', postResponse: 'return {}' } as Operation;
  expect(operationBudgetMs(hooked) - operationBudgetMs(o)).toBe(6 * 5000);
});

test('the budget uses the runtime limits', () => {
  expect(HOOK_ALLOWANCE_MS).toBe(DEFAULT_HOOK_TIMEOUT_MS);
  expect(RETRY_WAIT_ALLOWANCE_MS).toBe(MAX_RETRY_WAIT_MS);
});

describe('projects: options for one project', () => {
  test('are checked with the project options names, each under its key', () => {
    expect(() => validateOptions({ projects: { 'a/flow.yaml': { vars: { baseUrl: 'http://x' }, strict: true } } })).not.toThrow();
    expect(() => validateOptions({ projects: { a: { baseUrl: 'http://x' } } })).toThrow('projects["a"]: unknown option "baseUrl"');
    expect(() => validateOptions({ projects: { a: { vars: { baseUrl: 1 } } } })).toThrow('projects["a"]: vars.baseUrl must be a string, got 1');
    expect(() => validateOptions({ projects: ['a'] })).toThrow('projects must be an object keyed by the path of a flow.yaml');
    expect(() => validateOptions({ strict: 'yes' })).toThrow('strict must be true or false');
  });

  test('win over the shared options for their project only; vars merge by name', () => {
    const root = path.join(REPO_FIXTURES, 'projects');
    const shared = suiteOptions(
      { env: 'local', vars: { baseUrl: 'http://shared', tenant: 'acme' }, projects: { beta: { vars: { baseUrl: 'http://beta' }, strict: true } } },
      root,
    );
    const beta = path.join(root, 'beta/flow.yaml');
    expect(shared.projects).toEqual({ [beta]: { vars: { baseUrl: 'http://beta' }, strict: true } });
    expect(optionsFor(shared, beta)).toEqual({ env: 'local', vars: { baseUrl: 'http://beta', tenant: 'acme' }, strict: true });
    expect(optionsFor(shared, path.join(root, 'alpha/flow.yaml'))).toEqual({ env: 'local', vars: { baseUrl: 'http://shared', tenant: 'acme' } });
  });

  test('a key that names no flow.yaml is an error naming it', () => {
    const root = path.join(REPO_FIXTURES, 'projects');
    expect(() => suiteOptions({ projects: { 'alpha/flow.yml': {} } }, root)).toThrow('flow(): projects["alpha/flow.yml"] names no flow.yaml');
    expect(() => suiteOptions({ projects: { gamma: {} } }, root)).toThrow('projects["gamma"] names no flow.yaml');
  });
});
