// The client requires undici's parts from their own modules (src/runtime/http/undici.ts) to
// skip the ~60 ms of undici's index. Those paths are not undici's public API: this pins them
// to the objects undici exports, so an upgrade that moves one fails here, not in a run.
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { Agent, envHttpProxyAgentClass, formDataClass, interceptors, RedirectHandler } from '../../../src/runtime/http/undici.js';

describe("undici's parts, required one by one", () => {
  it('are the classes and interceptors undici exports', () => {
    expect(Agent).toBe(undici.Agent);
    expect(envHttpProxyAgentClass()).toBe(undici.EnvHttpProxyAgent);
    expect(RedirectHandler).toBe(undici.RedirectHandler);
    expect(interceptors.retry).toBe(undici.interceptors.retry);
    expect(formDataClass()).toBe(undici.FormData);
  });
});
