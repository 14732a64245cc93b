// Run by `npm run build` after tsc (node dist/lint/schema/build.js): writes the precompiled
// validators next to the compiled validators.js, which loads them instead of compiling.
import { writeFileSync } from 'node:fs';
import { standaloneValidators } from './ajv.js';
import { PRECOMPILED_FILE } from './validators.js';

writeFileSync(new URL(PRECOMPILED_FILE, import.meta.url), standaloneValidators());
