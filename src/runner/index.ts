// The runner stage: run operations with their prerequisites against a real API.
export { createRunner, type ForkOptions, type Runner } from './runner.js';
export type * from './types.js';
export { emptyListOf } from './empty-list.js';
export { NOT_SENT } from './schedule.js';
export { recordVerified } from './record.js';
export { describeUnset, needsVars, unsetVariables } from './unset-vars.js';
