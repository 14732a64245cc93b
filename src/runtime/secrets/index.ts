// Secrets: FLOW_SECRET_<NAME>, then the OS keychain. See store.ts.
export { createSecretStore, envSecretValues, secretEnvVar, secretFromEnv, secretMissing, SECRET_ENV_PREFIX } from './store.js';
export type { SecretStore, SecretStoreOptions } from './store.js';
export { keychainService, keychainUnavailable } from './keychain.js';
export type { Keychain } from './keychain.js';
export { createNapiKeychain } from './napi-keychain.js';
export type { NapiKeychainOptions } from './napi-keychain.js';
