import { describe, expect, it } from 'vitest';
import { SET_VIA_VAR, secretRef } from '../../../src/project/types.js';
import { createSecretStore, type Keychain } from '../../../src/runtime/secrets/index.js';
import { parseVarAssignment, render, renderString, varsFromEnv } from '../../../src/runtime/template/index.js';
import { rejection, testContext } from './helpers.js';

describe('render: types and shapes', () => {
  const ctx = testContext({
    env: { port: 8080, debug: true, nothing: null, baseUrl: 'http://api.test' },
    state: { instances: { order: [{ id: 42, items: [{ sku: 'A-1' }], meta: { tags: ['x'] } }] } },
  });

  it('a string that is exactly one reference keeps the value type', async () => {
    const body = await render({ id: '{{order.id}}', port: '{{env.port}}', debug: '{{ env.debug }}', nothing: '{{env.nothing}}', meta: '{{order.meta}}' }, ctx);
    expect(body).toEqual({ id: 42, port: 8080, debug: true, nothing: null, meta: { tags: ['x'] } });
    expect(JSON.stringify(body)).toBe('{"id":42,"port":8080,"debug":true,"nothing":null,"meta":{"tags":["x"]}}');
  });

  it('text around a reference makes a string; objects read as JSON inside text', async () => {
    expect(await render('order-{{order.id}}', ctx)).toBe('order-42');
    expect(await render(' {{order.id}}', ctx)).toBe(' 42');
    expect(await render('{{order.id}}{{order.id}}', ctx)).toBe('4242');
    expect(await render('m={{order.meta}}', ctx)).toBe('m={"tags":["x"]}');
    expect(await render('{{env.nothing}}/{{env.debug}}', ctx)).toBe('null/true');
  });

  it('renders deep, into maps and arrays, and leaves other values alone', async () => {
    const value = { a: [1, '{{order.id}}', { b: '{{env.baseUrl}}/orders/{{order.id}}' }], c: false, d: null, e: 'plain' };
    expect(await render(value, ctx)).toEqual({ a: [1, 42, { b: 'http://api.test/orders/42' }], c: false, d: null, e: 'plain' });
    // The input is not changed: templates are rendered again for every request.
    expect(value.a[1]).toBe('{{order.id}}');
  });

  it('reads a nested path into an extracted value', async () => {
    expect(await render('{{order.items.0.sku}}', ctx)).toBe('A-1');
  });

  it('renderString always gives a string', async () => {
    expect(renderString('{{order.id}}', ctx)).toBe('42');
    expect(renderString('{{order.meta}}', ctx)).toBe('{"tags":["x"]}');
    expect(renderString('no refs', ctx)).toBe('no refs');
  });
});

describe('render is synchronous', () => {
  const state = { instances: { order: [{ id: 42, next: 43 }] } };

  it('returns the rendered value itself, not a promise', () => {
    const ctx = testContext({ env: { baseUrl: 'http://api.test', path: '/o/{{order.id}}' }, state });
    const out = render({ id: '{{order.id}}', url: '{{env.baseUrl}}{{env.path}}', list: [1, '{{order.next}}'], n: 7 }, ctx);
    expect(out).toEqual({ id: 42, url: 'http://api.test/o/42', list: [1, 43], n: 7 });
    expect(renderString('{{env.baseUrl}}/{{order.id}}', ctx)).toBe('http://api.test/42');
    expect(renderString('plain', ctx)).toBe('plain');
  });

  it('a secret from the keychain is read by the store beforehand (load), then rendered at once', async () => {
    const keychain: Keychain = { get: async () => 'pw-123456', set: async () => {}, delete: async () => false, list: async () => [] };
    const store = createSecretStore({ projectName: 'p', env: {}, keychain });
    const ctx = testContext({ store, state });
    // Not loaded: the message says the keychain was not read, never a value.
    expect(() => render('{{secret.PW}}', ctx)).toThrow(expect.objectContaining({ code: 'E_SECRET_MISSING' }));
    await store.load(['PW']);
    expect(render({ a: '{{order.id}}', b: ['x', secretRef('PW')], c: 'pw={{secret.PW}}' }, ctx)).toEqual({ a: 42, b: ['x', 'pw-123456'], c: 'pw=pw-123456' });
  });

  it('throws an unresolved reference at once', () => {
    const ctx = testContext({ state });
    expect(() => render({ a: '{{order.id}}', b: '{{invoice.id}}' }, ctx)).toThrow(expect.objectContaining({ code: 'E_VAR_UNRESOLVED' }));
    expect(() => renderString('{{bad', ctx)).toThrow(expect.objectContaining({ code: 'E_TEMPLATE_SYNTAX' }));
  });
});

describe('render: env and --var', () => {
  it('a <SET_VIA_--var> value comes from the given vars', async () => {
    const ctx = testContext({ env: { tenant: SET_VIA_VAR }, vars: { tenant: 'acme' } });
    expect(await render('/t/{{env.tenant}}', ctx)).toBe('/t/acme');
  });

  it('a <SET_VIA_--var> value without a given value is E_VAR_UNRESOLVED naming --var and FLOW_VAR_', async () => {
    const err = await rejection(() => render('/t/{{env.tenant}}', testContext({ env: { tenant: SET_VIA_VAR } })));
    expect(err.code).toBe('E_VAR_UNRESOLVED');
    expect(err.message).toContain('--var tenant=');
    expect(err.message).toContain('FLOW_VAR_tenant');
    expect(err.details).toMatchObject({ variable: 'tenant', kind: 'env' });
  });

  it('a given var wins over the environment file and is never rendered itself', async () => {
    const ctx = testContext({ env: { baseUrl: 'http://prod' }, vars: { baseUrl: 'http://127.0.0.1:1', raw: '{{secret.X}}' } });
    expect(await render('{{env.baseUrl}}', ctx)).toBe('http://127.0.0.1:1');
    expect(await render('{{env.raw}}', ctx)).toBe('{{secret.X}}');
  });

  it('an undefined env variable is E_VAR_UNRESOLVED naming the environment', async () => {
    const err = await rejection(() => render('{{env.nope}}', testContext({ envName: 'staging' })));
    expect(err.code).toBe('E_VAR_UNRESOLVED');
    expect(err.message).toBe(
      `{{env.nope}}: environment "staging" has no variable "nope"; define it under variables:, or set it with --var nope=… (flow run), FLOW_VAR_nope, or the plugin's vars option`,
    );
  });

  it('an env value holding references is rendered in turn, keeping the type of a single reference', async () => {
    const ctx = testContext({
      env: {
        host: 'api.test',
        baseUrl: 'https://{{env.host}}',
        auth: 'Bearer {{secret.TOKEN}}',
        id: '{{order.id}}',
        creds: { user: 'u', pass: secretRef('PW') },
      },
      secrets: { TOKEN: 'tok-123456', PW: 'pw-987654' },
      state: { instances: { order: [{ id: 7 }] } },
    });
    expect(await render('{{env.baseUrl}}/x', ctx)).toBe('https://api.test/x');
    expect(await render('{{env.auth}}', ctx)).toBe('Bearer tok-123456');
    expect(await render('{{env.id}}', ctx)).toBe(7);
    expect(await render('{{env.creds}}', ctx)).toEqual({ user: 'u', pass: 'pw-987654' });
  });

  it('env variables referring to each other in a loop are E_TEMPLATE_CYCLE with the chain', async () => {
    const ctx = testContext({ env: { a: 'x{{env.b}}', b: '{{env.c}}', c: '{{env.a}}' } });
    const err = await rejection(() => render('{{env.a}}', ctx));
    expect(err.code).toBe('E_TEMPLATE_CYCLE');
    expect(err.message).toContain('env.a -> env.b -> env.c -> env.a');
  });

  it('the same env variable used twice side by side is not a loop', async () => {
    const ctx = testContext({ env: { h: 'h', u: '{{env.h}}-{{env.h}}' } });
    expect(await render('{{env.u}}/{{env.u}}', ctx)).toBe('h-h/h-h');
  });

  it('varsFromEnv and parseVarAssignment', () => {
    expect(varsFromEnv({ FLOW_VAR_baseUrl: 'http://x', FLOW_VAR_: 'ignored', OTHER: 'y', FLOW_VAR_a: 'b=c' })).toEqual({ baseUrl: 'http://x', a: 'b=c' });
    expect(parseVarAssignment('k=v=w')).toEqual({ name: 'k', value: 'v=w' });
    expect(parseVarAssignment('k=')).toEqual({ name: 'k', value: '' });
    expect(parseVarAssignment('=v')).toBeUndefined();
    expect(parseVarAssignment('k')).toBeUndefined();
  });
});

describe('render: secrets', () => {
  it('{{secret.X}} and !secret values resolve through the store, which records what it revealed', async () => {
    const revealedTo: string[] = [];
    const store = createSecretStore({
      projectName: 'p',
      env: { FLOW_SECRET_API_KEY: 'k-abcdef', FLOW_SECRET_PW: 'pw-123456' },
      keychain: false,
      onReveal: (v) => revealedTo.push(v),
    });
    const ctx = testContext({ store });
    const out = await render({ h: 'Key {{secret.API_KEY}}', pw: secretRef('PW'), list: [secretRef('PW')] }, ctx);
    expect(out).toEqual({ h: 'Key k-abcdef', pw: 'pw-123456', list: ['pw-123456'] });
    expect([...store.revealed()].sort()).toEqual(['k-abcdef', 'pw-123456']);
    expect(revealedTo.sort()).toEqual(['k-abcdef', 'pw-123456']);
  });

  it('an encoding of a secret is itself recorded for redaction; an encoding of plain text is not', async () => {
    const store = createSecretStore({ projectName: 'p', env: { FLOW_SECRET_PW: 'pw-123456' }, keychain: false });
    const ctx = testContext({ store, env: { user: 'alice' } });
    const basic = await render("Basic {{$.base64.encode('{{env.user}}:{{secret.PW}}')}}", ctx);
    const encoded = Buffer.from('alice:pw-123456').toString('base64');
    expect(basic).toBe(`Basic ${encoded}`);
    await render("{{$.hex.encode('{{env.user}}')}}", ctx);
    expect([...store.revealed()].sort()).toEqual([encoded, 'pw-123456'].sort());
  });

  it('a secret reached through an env variable taints the encoding too', async () => {
    const store = createSecretStore({ projectName: 'p', env: { FLOW_SECRET_PW: 'pw-123456' }, keychain: false });
    const ctx = testContext({ store, env: { pw: secretRef('PW') } });
    const out = await render("{{$.url.encode('{{env.pw}}/x')}}", ctx);
    expect(out).toBe('pw-123456%2Fx');
    expect(store.revealed().has('pw-123456%2Fx')).toBe(true);
  });

  it('a missing secret is E_SECRET_MISSING and nothing is rendered', async () => {
    const keychainGets: string[] = [];
    const keychain: Keychain = {
      get: async (_s, a) => (keychainGets.push(a), null),
      set: async () => {},
      delete: async () => false,
      list: async () => [],
    };
    const store = createSecretStore({ projectName: 'p', env: {}, keychain });
    await store.load(['TOKEN']); // never rejects: the error is kept for the render
    const err = await rejection(() => render({ a: '{{secret.TOKEN}}' }, testContext({ store })));
    expect(err.code).toBe('E_SECRET_MISSING');
    expect(err.message).toContain('flow secret set TOKEN');
    expect(err.details).toMatchObject({ keychain: 'not-found' });
    expect(keychainGets).toEqual(['TOKEN']);
  });
});

describe('render: resolution order and scoped values', () => {
  it('env and secret are their own scopes even when an actor or resource has that name', async () => {
    const ctx = testContext({
      env: { token: 'from-env' },
      secrets: { token: 'from-secret' },
      state: { sessions: { env: { token: 'from-actor' } }, instances: { secret: [{ token: 'from-resource' }] } },
    });
    expect(await render('{{env.token}}|{{secret.token}}', ctx)).toBe('from-env|from-secret');
  });

  it('a name that is both an actor and a resource: the session first, then the resource', async () => {
    const ctx = testContext({
      state: { sessions: { user: { token: 'session-token' } }, instances: { user: [{ id: 1, token: 'old' }, { id: 2 }] } },
    });
    expect(await render('{{user.token}}', ctx)).toBe('session-token');
    // The session lacks `id`: the newest instance that has it answers.
    expect(await render('{{user.id}}', ctx)).toBe(2);
    // An index always means an instance.
    expect(await render('{{user[1].token}}', ctx)).toBe('old');
  });

  it('the newest instance that has the field; an index counts from 1 and never falls back', async () => {
    const ctx = testContext({ state: { instances: { order: [{ id: 1, code: 'a' }, { id: 2, code: 'b' }, { id: 3 }] } } });
    expect(await render('{{order.id}}', ctx)).toBe(3);
    expect(await render('{{order.code}}', ctx)).toBe('b');
    expect(await render('{{order[1].id}}', ctx)).toBe(1);
    const err = await rejection(() => render('{{order[3].code}}', ctx));
    expect(err.code).toBe('E_VAR_UNRESOLVED');
    expect(err.message).toBe('{{order[3].code}}: nothing has produced order[3].code yet');
  });

  it('a negative index counts back from the newest, among the instances that have the field', async () => {
    const ctx = testContext({ state: { instances: { order: [{ id: 1, code: 'a' }, { id: 2, code: 'b' }, { id: 3 }, { other: 'listed' }] } } });
    // [-1] is what {{order.code}} reads; [-2] the one before it
    expect(await render('{{order[-1].code}}|{{order[-2].code}}|{{order[-2].id}}|{{order[-3].id}}', ctx)).toBe('b|a|2|1');
    const err = await rejection(() => render('{{order[-3].code}}', ctx));
    expect(err.message).toBe('{{order[-3].code}}: nothing has produced order[-3].code yet');
  });

  it('a value nothing has produced is E_VAR_UNRESOLVED with the scope and field in details', async () => {
    const err = await rejection(() => render({ body: { id: 'x-{{order.idd}}' } }, testContext({ state: { instances: { order: [{ id: 1 }] } } })));
    expect(err.code).toBe('E_VAR_UNRESOLVED');
    expect(err.message).toContain('order.idd');
    expect(err.details).toMatchObject({ scope: 'order', field: 'idd', reference: '{{order.idd}}' });
  });

  it('a malformed reference is E_TEMPLATE_SYNTAX before any secret is fetched', async () => {
    const store = createSecretStore({ projectName: 'p', env: { FLOW_SECRET_S: 'sssss-1' }, keychain: false });
    const ctx = testContext({ store });
    for (const text of ['{{secret.S}} {{$.random}}', '{{secret.S}} {{ order..id }}', '{{secret.S}} {{env.x']) {
      const err = await rejection(() => render(text, ctx));
      expect(err.code, text).toBe('E_TEMPLATE_SYNTAX');
    }
    expect(store.revealed().size).toBe(0);
    expect((await rejection(() => render('{{}}', ctx))).code).toBe('E_TEMPLATE_SYNTAX');
  });
});
