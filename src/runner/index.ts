// The runner stage: run operations with their prerequisites against a real API.
export { createRunner, type ForkOptions, type Runner } from './runner.js';
export type * from './types.js';
export { chooseEnvironment, collectVars } from './environment.js';
export { recordVerified } from './record.js';
export { describeUnset, needsVars, unsetNames, unsetVariables, type UnsetVariable } from './unset-vars.js';
