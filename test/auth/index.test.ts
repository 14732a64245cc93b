// The dispatch table: every strategy of spec 5 has a module; those not built yet fail clearly.
import { describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import type { OutgoingRequest } from '../../src/auth/types.js';
import { AUTH_STRATEGIES, type AuthStrategyName } from '../../src/project/types.js';
import { makeAuthContext, rejection } from './context.js';

const NOT_YET: AuthStrategyName[] = ['oauth1', 'aws_sigv4', 'mtls'];

describe('strategyFor', () => {
  test.each([...AUTH_STRATEGIES])('%s has a strategy of that kind', (name) => {
    const s = strategyFor(name);
    expect(s.kind).toBe(name);
    expect(typeof s.login).toBe('function');
    expect(typeof s.apply).toBe('function');
  });

  test.each(NOT_YET)('%s is not supported yet: E_AUTH at login and at apply', async (name) => {
    const t = makeAuthContext({ baseUrl: 'http://127.0.0.1:9' });
    const s = strategyFor(name);
    const config = { strategy: name, rawStrategy: name, options: {}, file: 'x', yamlPath: [], loc: { file: 'x', line: 1, col: 1 } };
    const err = await rejection(s.login(config, t.ctx));
    expect(err.code).toBe('E_AUTH');
    expect(err.message).toBe(`strategy ${name} is not supported yet (inline auth)`);
    const req: OutgoingRequest = { method: 'GET', url: new URL('http://127.0.0.1:9/'), headers: {} };
    expect((await rejection(s.apply(req, config, { values: {} }, t.ctx))).code).toBe('E_AUTH');
    expect(req.headers).toEqual({});
  });
});
