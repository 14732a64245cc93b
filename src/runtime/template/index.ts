// Templates at run time: render `{{ … }}` references (docs/format.md#references) and every builtin.
export { render, renderString } from './render.js';
export type { RenderContext } from './context.js';
export { indexedPlace, lookupInState, withField } from './state.js';
export { varsFromEnv, parseVarAssignment } from './vars.js';
export { FAKER_NAMES, loadFaker } from './builtins/faker.js';
