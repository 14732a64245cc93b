// Templates at run time: render `{{ … }}` references (docs/format.md#references) and every builtin.
export { render, renderString } from './render.js';
export type { RenderContext, ScopedRef, ScopedLookup } from './context.js';
export { lookupInState } from './state.js';
export type { ScopedState } from './state.js';
export { varsFromEnv, parseVarAssignment, VAR_ENV_PREFIX } from './vars.js';
export { FAKER_NAMES, loadFaker } from './builtins/faker.js';
