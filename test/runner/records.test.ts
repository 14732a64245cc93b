// Results are plain data (issue 20): a library user spreads, clones, serializes and compares
// the exchange records of a real run, and each copy holds every field, redacted, and none can
// be changed. Before, records were getters over private fields: a spread or structuredClone
// kept only `method`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import type { Exchange, OperationResult } from '../../src/runner/types.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

const API_KEY = 'ak-Records-0451';
let server: TestServer;
let result: OperationResult;
let exchange: Exchange;

beforeAll(async () => {
  // echoes what it got, so the secret comes back in the response too
  server = await startServer({ '*': (q, res) => json(res, 201, { got: q.text(), key: q.headers['x-api-key'] }, { 'x-many': ['a', 'b'] }) });
  const { runner } = await load(
    {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url }),
      'resources/items.yaml': [
        'name: item',
        'operations:',
        '  create:',
        '    method: POST',
        '    path: /items',
        '    headers: { X-Api-Key: "{{secret.API_KEY}}" }',
        '    query_params: { k: "{{secret.API_KEY}}" }',
        '    body: { note: "key {{secret.API_KEY}}" }',
        '    expect_status: 201',
        '',
      ].join('\n'),
    },
    { secrets: { API_KEY } },
  );
  result = await runner.run('item.create');
  expect(result.status).toBe('passed');
  exchange = result.exchanges[0];
});
afterAll(async () => {
  await closeRunners();
  await server.close();
});

describe('an exchange record', () => {
  it('holds every field, redacted, as own enumerable data', () => {
    expect(Object.keys(exchange.request).sort()).toEqual(['body', 'headers', 'method', 'url']);
    expect(Object.keys(exchange.response!).sort()).toEqual(['body', 'headers', 'ms', 'status']);
    expect(exchange.request.url).toBe(`${server.url}/items?k=***`);
    expect(exchange.request.headers['X-Api-Key'] ?? exchange.request.headers['x-api-key']).toBe('***');
    expect(exchange.response!.status).toBe(201);
    expect(exchange.response!.headers['x-many']).toEqual(['a', 'b']);
    expect(JSON.stringify(exchange)).not.toContain(API_KEY);
  });

  it('is the same when spread', () => {
    const spread = { ...exchange, request: { ...exchange.request }, response: { ...exchange.response! } };
    expect(spread).toStrictEqual(exchange);
    expect(spread.request.body).toContain('key ***');
  });

  it('is the same when cloned with structuredClone', () => {
    const clone = structuredClone(result);
    expect(clone).toStrictEqual(result);
    expect(clone.exchanges[0].response!.body).toBe(exchange.response!.body);
  });

  it('is the same after a JSON round trip', () => {
    expect(JSON.parse(JSON.stringify(exchange))).toStrictEqual(exchange);
  });

  it('cannot be changed', () => {
    expect(Object.isFrozen(exchange)).toBe(true);
    expect(() => {
      (exchange.request as { url: string }).url = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (exchange.response!.headers as Record<string, string>)['x-new'] = '1';
    }).toThrow(TypeError);
    expect(() => (exchange.response!.headers['x-many'] as string[]).push('c')).toThrow(TypeError);
  });
});
