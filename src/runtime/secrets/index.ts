// Secrets: FLOW_SECRET_<NAME>, then the OS keychain. See store.ts.
export { createSecretStore, envSecretValues, secretEnvVar, secretFromEnv, SECRET_ENV_PREFIX, type SecretStore } from './store.js';
export { keychainService, keychainUnavailable, type Keychain } from './keychain.js';
export { createNapiKeychain } from './napi-keychain.js';
