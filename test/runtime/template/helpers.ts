// A render context over plain in-memory state, with env-var-only secrets.
import type { TemplateValue } from '../../../src/project/types.js';
import { createSecretStore, type SecretStore } from '../../../src/runtime/secrets/index.js';
import { lookupInState, type RenderContext } from '../../../src/runtime/template/index.js';

export interface TestState {
  sessions?: Record<string, Record<string, unknown>>;
  instances?: Record<string, Array<Record<string, unknown>>>;
}

export function testContext(
  options: {
    env?: Record<string, TemplateValue>;
    vars?: Record<string, string>;
    secrets?: Record<string, string>;
    state?: TestState;
    store?: SecretStore;
  } & Partial<Pick<RenderContext, 'now' | 'faker' | 'envName'>> = {},
): RenderContext {
  const processEnv = Object.fromEntries(Object.entries(options.secrets ?? {}).map(([k, v]) => [`FLOW_SECRET_${k}`, v]));
  const state = options.state ?? {};
  return {
    env: options.env ?? {},
    envName: options.envName,
    vars: options.vars ?? {},
    secrets: options.store ?? createSecretStore({ projectName: 'test', env: processEnv, keychain: false }),
    lookupScoped: (ref) =>
      lookupInState(ref, {
        session: (name) => state.sessions?.[name],
        instances: (name) => state.instances?.[name],
      }),
    now: options.now,
    faker: options.faker,
  };
}

/** The FlowError a call throws or a promise rejects with (fails the test when there is none). */
export async function rejection(p: Promise<unknown> | (() => unknown)): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  let value: unknown;
  try {
    value = await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return err as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
}
