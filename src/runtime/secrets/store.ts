// Secrets at run time: the env var FLOW_SECRET_<NAME> first (CI), then the OS keychain
// (service `reqflow:<project name>`, account NAME). Every value handed out is remembered,
// so that the redactor can hide it in every output.
import { FlowError } from '../../errors.js';
import { keychainService, type Keychain } from './keychain.js';
import { createNapiKeychain } from './napi-keychain.js';

export interface SecretStore {
  /** the secret's value; rejects with `E_SECRET_MISSING` (never with an empty value) */
  get(name: string): Promise<string>;
  /**
   * Read secrets from the keychain ahead of use, so that `value` can answer synchronously
   * (rendering is synchronous). A failure is kept for `value` to throw; never rejects.
   */
  load(names: Iterable<string>): Promise<void>;
  /**
   * The secret's value now: FLOW_SECRET_<NAME>, else what `load` read. Throws the load's
   * `E_SECRET_MISSING`, or one saying the keychain was not read for a name never loaded.
   */
  value(name: string): string;
  /** every secret value handed out so far, and every value derived from one (see `markSecret`) */
  revealed(): ReadonlySet<string>;
  /** register a value derived from secrets (e.g. `$.base64.encode` of one) so it is redacted too */
  markSecret(value: string): void;
}

export interface SecretStoreOptions {
  /** the project's `name:`: the keychain service is `reqflow:<projectName>` */
  projectName: string;
  /** another keychain service (`flow secret --global`: `reqflow`) */
  service?: string;
  /** where FLOW_SECRET_* are read (default process.env) */
  env?: NodeJS.ProcessEnv;
  /** the keychain to read; `false` for none (env vars only). Default: the OS keychain. */
  keychain?: Keychain | false;
  /** called with each value as it is revealed (e.g. the run's redactor's `add`) */
  onReveal?: (value: string) => void;
}

export const SECRET_ENV_PREFIX = 'FLOW_SECRET_';

/**
 * The env var of a secret: `FLOW_SECRET_<NAME>`, with each character a shell cannot put in
 * a variable name (`-`, `.`) written as `_`: `api-key` -> `FLOW_SECRET_api_key`.
 */
export function secretEnvVar(name: string): string {
  return SECRET_ENV_PREFIX + name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The secret from FLOW_SECRET_<NAME> (exact spelling first, then the shell-safe one), if set and not empty. */
export function secretFromEnv(name: string, env: NodeJS.ProcessEnv): { value: string; envVar: string } | undefined {
  for (const envVar of [SECRET_ENV_PREFIX + name, secretEnvVar(name)]) {
    const value = env[envVar];
    if (value) return { value, envVar };
  }
  return undefined;
}

/** Every FLOW_SECRET_* value set: what a process started with this environment (a managed server) may print. */
export function envSecretValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env).flatMap(([name, value]) => (name.startsWith(SECRET_ENV_PREFIX) && value ? [value] : []));
}

export function createSecretStore(options: SecretStoreOptions): SecretStore {
  const env = options.env ?? process.env;
  const service = options.service ?? keychainService(options.projectName);
  let keychain: Keychain | false | undefined = options.keychain;
  const cache = new Map<string, Promise<string>>();
  /** what the latest read of each name got, the value or the error: what `value` answers from */
  const loaded = new Map<string, { value: string } | { error: unknown }>();
  const revealed = new Set<string>();

  const reveal = (value: string) => {
    if (revealed.has(value)) return;
    revealed.add(value);
    options.onReveal?.(value);
  };

  /** The variable to name in a message, and whether it is set but empty. */
  const envFacts = (name: string) => {
    const envVar = secretEnvVar(name);
    return { envVar, service, envEmpty: env[SECRET_ENV_PREFIX + name] === '' || env[envVar] === '' };
  };

  async function lookup(name: string): Promise<string> {
    const fromEnv = secretFromEnv(name, env);
    if (fromEnv) return fromEnv.value;
    const facts = envFacts(name);
    if (keychain === false) throw secretMissing(name, { ...facts, keychain: 'disabled' });
    keychain ??= createNapiKeychain();
    let value: string | null;
    try {
      value = await keychain.get(service, name);
    } catch (err) {
      throw secretMissing(name, { ...facts, keychain: 'unreachable', reason: reasonOf(err) }, err);
    }
    if (!value) throw secretMissing(name, { ...facts, keychain: 'not-found' });
    return value;
  }

  function get(name: string): Promise<string> {
    let pending = cache.get(name);
    if (!pending) {
      pending = lookup(name).then(
        (value) => {
          reveal(value);
          loaded.set(name, { value });
          return value;
        },
        (error: unknown) => {
          // A failure is not cached: the user may set the secret and retry in the same process.
          cache.delete(name);
          loaded.set(name, { error });
          throw error;
        },
      );
      cache.set(name, pending);
    }
    return pending;
  }

  return {
    get,
    // A name read before is a cache hit of `get`; one that failed is read again.
    async load(names) {
      await Promise.all(Array.from(names, (name) => get(name).catch(() => undefined)));
    },
    value(name) {
      const fromEnv = secretFromEnv(name, env);
      if (fromEnv) {
        reveal(fromEnv.value);
        return fromEnv.value;
      }
      const got = loaded.get(name);
      if (got && 'value' in got) return got.value;
      if (got) throw got.error;
      throw secretMissing(name, { ...envFacts(name), keychain: keychain === false ? 'disabled' : 'not-loaded' });
    },
    revealed: () => revealed,
    markSecret(value) {
      if (value) reveal(value);
    },
  };
}

/** Why the keychain failed, in its own words (keychainUnavailable keeps them in details.reason). */
function reasonOf(err: unknown): string {
  const reason = (err as FlowError | undefined)?.details?.reason;
  if (typeof reason === 'string') return reason;
  return err instanceof Error ? err.message : String(err);
}

interface MissingFacts {
  envVar: string;
  service: string;
  envEmpty: boolean;
  keychain: 'disabled' | 'unreachable' | 'not-found' | 'not-loaded';
  reason?: string;
}

/**
 * The message names the variable, and never any value. `flow secret set` is suggested only
 * where a keychain was reached: elsewhere (CI, a shell without a desktop session) it would
 * fail too, and the variable is the way.
 */
function secretMissing(name: string, facts: MissingFacts, cause?: unknown): FlowError {
  const env = facts.envEmpty ? `${facts.envVar} is set but empty` : `${facts.envVar} is not set`;
  const where = MISSING_WHERE[facts.keychain](facts);
  const fix =
    facts.keychain === 'not-found'
      ? `Set the environment variable ${facts.envVar}, or store it with \`flow secret set ${name}\``
      : `Set the environment variable ${facts.envVar}`;
  const message = `secret "${name}" is missing: ${env}, and ${where}. ${fix}`;
  return new FlowError('E_SECRET_MISSING', message, {
    cause,
    details: { secret: name, envVar: facts.envVar, service: facts.service, keychain: facts.keychain, ...(facts.reason ? { reason: facts.reason } : {}) },
  });
}

const MISSING_WHERE: Record<MissingFacts['keychain'], (f: MissingFacts) => string> = {
  'not-found': (f) => `the OS keychain has no entry for it (service "${f.service}")`,
  unreachable: (f) => `the OS keychain could not be reached (${f.reason}; README.md, Troubleshooting, says how to start one)`,
  disabled: () => 'the OS keychain is not used here',
  // A caller rendered a name it did not load first (a runner loads every name its project writes).
  'not-loaded': () => 'the OS keychain was not read for it before rendering',
};
