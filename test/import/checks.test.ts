// The self-check of spec 1.8 as code: one crafted violation per item, each found with its code.
import { describe, expect, it } from 'vitest';
import { selfCheck } from '../../src/import/check/index.js';
import { viewOf, type ViewFile } from '../../src/import/check/view.js';
import { secretRef } from '../../src/project/types.js';

const file = (path: string, kind: ViewFile['kind'], value: Record<string, unknown>): ViewFile => ({ path, kind, value, text: '' });
const prov = { source: 'ai_import', evidence: { operation: 'x' }, verified_against: 'synthetic' };

function project(ops: Record<string, Record<string, unknown>>, extra: { env?: Record<string, unknown>; actor?: Record<string, unknown> } = {}) {
  const files = [
    file('flow.yaml', 'root', { version: 1, name: 't', imports: ['environments/*.yaml', 'actors/*.yaml', 'resources/*.yaml'] }),
    file('environments/default.yaml', 'environment', { name: 'default', variables: { baseUrl: 'https://h.test', ...extra.env } }),
    file('actors/admin.yaml', 'actor', { name: 'admin', auth: { strategy: 'bearer', token: '{{secret.T}}' }, ...extra.actor }),
    file('resources/orders.yaml', 'resource', {
      name: 'order',
      operations: Object.fromEntries(Object.entries(ops).map(([k, v]) => [k, { _provenance: prov, ...v }])),
    }),
  ];
  return viewOf(files);
}

const codes = (v: ReturnType<typeof project>) => selfCheck(v).map((f) => f.code);

describe('self-check (spec 1.8)', () => {
  it('a sound project passes', () => {
    const v = project(
      {
        create: { method: 'POST', path: '/orders', actor: 'admin', extract: { id: '$.data.id' } },
        get: { path: '/orders/{{order.id}}', depends_on: ['order.create'], headers: { 'X-Env': '{{env.region}}' } },
      },
      { env: { region: 'eu', password: secretRef('PW') } },
    );
    expect(selfCheck(v)).toEqual([]);
  });
  const cases: Array<[string, Parameters<typeof project>[0], Parameters<typeof project>[1], string]> = [
    ['a scope that is no actor, resource, env or secret', { get: { path: '/o/{{invoice.id}}' } }, {}, 'E_CHECK_SCOPE'],
    ['an {{env.X}} not in the environment file', { get: { path: '/o/{{env.region}}' } }, {}, 'E_CHECK_ENV_UNDEFINED'],
    [
      'an extraction referenced by operation',
      { create: { path: '/o', extract: { id: '$.data.id' } }, get: { path: '/o/{{order.create.id}}' } },
      {},
      'E_CHECK_OPERATION_REF',
    ],
    ['a plaintext password', { get: { path: '/o', body: { password: 'hunter2' } } }, {}, 'E_CHECK_PLAINTEXT_SECRET'],
    ['a plaintext token in the environment', { get: { path: '/o' } }, { env: { api_token: 'abc123' } }, 'E_CHECK_PLAINTEXT_SECRET'],
    ['a baseUrl with a path', { get: { path: '/o' } }, { env: { baseUrl: 'https://h.test/v1' } }, 'E_CHECK_BASEURL_PATH'],
    ['a scalar depends_on', { create: { path: '/o' }, get: { path: '/o', depends_on: 'order.create' } }, {}, 'E_CHECK_NOT_SEQUENCE'],
    ['an empty assert', { get: { path: '/o', assert: [] } }, {}, 'E_CHECK_EMPTY_KEY'],
    ['an empty actor', { get: { path: '/o', actor: '' } }, {}, 'E_CHECK_EMPTY_KEY'],
    ['a cycle', { a: { path: '/a/{{order.y}}', extract: { x: '$.data.x' } }, b: { path: '/b/{{order.x}}', extract: { y: '$.data.y' } } }, {}, 'E_CHECK_CYCLE'],
    ['a strategy that does not exist', { get: { path: '/o' } }, { actor: { auth: { strategy: 'oauth2', token: '{{secret.T}}' } } }, 'E_CHECK_STRATEGY'],
    ['a key the spec does not list', { get: { path: '/o', url: 'https://h.test/o' } }, {}, 'E_CHECK_UNKNOWN_KEY'],
    ['an operation without _provenance', { get: { path: '/o', _provenance: undefined } }, {}, 'E_CHECK_PROVENANCE'],
  ];
  it.each(cases)('finds %s', (_what, ops, extra, code) => {
    expect(codes(project(ops, extra))).toContain(code);
  });
});
