// The `$.` builtins (docs/format.md#builtins), one module each.
export { uuid } from './uuid.js';
export { now } from './now.js';
export { faker } from './faker.js';
export { codec } from './codec.js';
