// The runtime stage's entry: what the later stages use of it.
export { evaluateAssert, parseAssert } from './assert/index.js';
export { extractAll, readPath } from './extract/index.js';
export type { ExtractResult } from './extract/index.js';
export { createHookRunner, isHookFile } from './hooks/index.js';
export type { HookInput, HookKind, HookOutput, HookRunner } from './hooks/index.js';
export { createNapiKeychain, createSecretStore, envSecretValues, keychainService, secretFromEnv } from './secrets/index.js';
export type { Keychain, SecretStore } from './secrets/index.js';
export { indexedPlace, loadFaker, lookupInState, withField, parseVarAssignment, render, renderString, varsFromEnv } from './template/index.js';
export type { RenderContext } from './template/index.js';
