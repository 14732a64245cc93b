// The store's order and messages. The keychain here is a Map behind the Keychain
// interface; the real OS keychain is exercised in keychain.test.ts.
import { describe, expect, it } from 'vitest';
import { createSecretStore, keychainUnavailable, secretEnvVar, type Keychain } from '../../../src/runtime/secrets/index.js';
import { rejection } from '../template/helpers.js';

function mapKeychain(entries: Record<string, string> = {}, calls: string[] = []): Keychain {
  const items = new Map(Object.entries(entries));
  return {
    get: async (service, account) => (calls.push(`get ${service} ${account}`), items.get(`${service}/${account}`) ?? null),
    set: async (service, account, value) => void items.set(`${service}/${account}`, value),
    delete: async (service, account) => items.delete(`${service}/${account}`),
    list: async (service) => [...items.keys()].filter((k) => k.startsWith(`${service}/`)).map((k) => k.slice(service.length + 1)),
  };
}

const unreachable: Keychain = {
  get: async () => {
    throw keychainUnavailable('no D-Bus session bus (a headless Linux session has no Secret Service)');
  },
  set: async () => {},
  delete: async () => false,
  list: async () => [],
};

describe('secret store', () => {
  it('reads FLOW_SECRET_<NAME> first, then the keychain under reqflow:<project>', async () => {
    const calls: string[] = [];
    const store = createSecretStore({
      projectName: 'shop',
      env: { FLOW_SECRET_A: 'from-env' },
      keychain: mapKeychain({ 'reqflow:shop/A': 'from-keychain-a', 'reqflow:shop/B': 'from-keychain-b', 'reqflow:other/C': 'x' }, calls),
    });
    expect(await store.get('A')).toBe('from-env');
    expect(await store.get('B')).toBe('from-keychain-b');
    expect(calls).toEqual(['get reqflow:shop B']);
    expect((await rejection(store.get('C'))).code).toBe('E_SECRET_MISSING');
  });

  it('caches per store: concurrent and later gets ask the keychain once', async () => {
    const calls: string[] = [];
    const store = createSecretStore({ projectName: 'p', env: {}, keychain: mapKeychain({ 'reqflow:p/T': 'tok-1' }, calls) });
    const all = await Promise.all([store.get('T'), store.get('T'), store.get('T')]);
    expect(all).toEqual(['tok-1', 'tok-1', 'tok-1']);
    expect(await store.get('T')).toBe('tok-1');
    expect(calls).toHaveLength(1);
  });

  it('does not cache a failure: a secret set later is found', async () => {
    const keychain = mapKeychain();
    const store = createSecretStore({ projectName: 'p', env: {}, keychain });
    expect((await rejection(store.get('LATE'))).code).toBe('E_SECRET_MISSING');
    await keychain.set('reqflow:p', 'LATE', 'now-set');
    expect(await store.get('LATE')).toBe('now-set');
  });

  it('reveals each value once to onReveal and in revealed(); derived values too', async () => {
    const seen: string[] = [];
    const store = createSecretStore({ projectName: 'p', env: { FLOW_SECRET_X: 'xxxx-1' }, keychain: false, onReveal: (v) => seen.push(v) });
    await store.get('X');
    await store.get('X');
    store.markSecret('eHh4eC0x');
    store.markSecret('');
    expect(seen).toEqual(['xxxx-1', 'eHh4eC0x']);
    expect([...store.revealed()]).toEqual(['xxxx-1', 'eHh4eC0x']);
  });

  it('a name with - uses the shell-safe variable; the exact spelling also works', async () => {
    expect(secretEnvVar('api-key')).toBe('FLOW_SECRET_api_key');
    expect(await createSecretStore({ projectName: 'p', env: { FLOW_SECRET_api_key: 'v1-xx' }, keychain: false }).get('api-key')).toBe('v1-xx');
    expect(
      await createSecretStore({ projectName: 'p', env: { 'FLOW_SECRET_api-key': 'v2-xx', FLOW_SECRET_api_key: 'v1-xx' }, keychain: false }).get('api-key'),
    ).toBe('v2-xx');
  });
});

describe('E_SECRET_MISSING', () => {
  const others = { FLOW_SECRET_OTHER: 'other-secret-value', FLOW_SECRET_TOKEN2: 'tok2-secret-value' };

  it('names flow secret set NAME and the env var, and no value', async () => {
    const err = await rejection(
      createSecretStore({ projectName: 'shop', env: others, keychain: mapKeychain({ 'reqflow:shop/OTHER': 'kc-secret-value' }) }).get('TOKEN'),
    );
    expect(err.code).toBe('E_SECRET_MISSING');
    expect(err.message).toContain('`flow secret set TOKEN`');
    expect(err.message).toContain('FLOW_SECRET_TOKEN');
    expect(err.message).toContain('reqflow:shop');
    expect(err.details).toMatchObject({ secret: 'TOKEN', envVar: 'FLOW_SECRET_TOKEN', service: 'reqflow:shop', keychain: 'not-found' });
    const all = `${err.message} ${JSON.stringify(err.details)}`;
    for (const v of ['other-secret-value', 'tok2-secret-value', 'kc-secret-value']) expect(all).not.toContain(v);
  });

  it('an empty env var is said to be empty, not taken as the value', async () => {
    const err = await rejection(createSecretStore({ projectName: 'p', env: { FLOW_SECRET_T: '' }, keychain: mapKeychain() }).get('T'));
    expect(err.code).toBe('E_SECRET_MISSING');
    expect(err.message).toContain('FLOW_SECRET_T is set but empty');
  });

  it('an unreachable keychain is not a crash: the message says why and still names the env var', async () => {
    const err = await rejection(createSecretStore({ projectName: 'p', env: others, keychain: unreachable }).get('TOKEN'));
    expect(err.code).toBe('E_SECRET_MISSING');
    expect(err.message).toContain('could not be reached (no D-Bus session bus');
    expect(err.message).toContain('FLOW_SECRET_TOKEN');
    // `flow secret set` would fail as well: only the variable is suggested
    expect(err.message).not.toContain('flow secret set');
    expect(err.details).toMatchObject({ keychain: 'unreachable' });
    expect(err.message).not.toContain('other-secret-value');
  });

  it('with the keychain off, only the env var is read', async () => {
    const err = await rejection(createSecretStore({ projectName: 'p', env: {}, keychain: false }).get('T'));
    expect(err.message).toContain('the OS keychain is not used here');
    expect(err.message).not.toContain('flow secret set');
  });
});
