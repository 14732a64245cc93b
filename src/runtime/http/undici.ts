// The parts of undici the client uses, each required from its own module. undici's index
// loads every part (fetch, WebSocket, EventSource, caches, mocks, SOCKS): about 60 ms of
// start-up, in `flow run` and in every Vitest worker, for classes a run never uses. They are
// the same objects undici exports (test/runtime/http/undici.test.ts fails if an upgrade of
// undici moves one).
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

/**
 * One part of undici from its own module; if a newer undici has moved it, from the index
 * (slower to load, same object): an upgrade costs start-up time, never a broken command.
 */
function part<T>(file: string, fromIndex: (undici: typeof Undici) => T): T {
  try {
    return require(file) as T;
  } catch {
    return fromIndex(require('undici') as typeof Undici);
  }
}

export const Agent = part<typeof Undici.Agent>('undici/lib/dispatcher/agent.js', (u) => u.Agent);
export const RedirectHandler = part<typeof Undici.RedirectHandler>('undici/lib/handler/redirect-handler.js', (u) => u.RedirectHandler);
export const interceptors: Pick<typeof Undici.interceptors, 'retry'> = {
  retry: part('undici/lib/interceptor/retry.js', (u) => u.interceptors.retry),
};

/**
 * The proxy agent, from undici's index: it tunnels with `connect()`, one of the API methods
 * the index adds to every dispatcher. Only runs behind a proxy pay for it.
 */
export function envHttpProxyAgentClass(): typeof Undici.EnvHttpProxyAgent {
  return (require('undici') as typeof Undici).EnvHttpProxyAgent;
}

let formData: typeof Undici.FormData | undefined;

/** undici's FormData, for multipart bodies only: loaded on first use. */
export function formDataClass(): typeof Undici.FormData {
  return (formData ??= part<{ FormData: typeof Undici.FormData }>('undici/lib/web/fetch/formdata.js', (u) => ({ FormData: u.FormData })).FormData);
}
