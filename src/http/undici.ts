// undici, from its public entry only, loaded with the first HTTP client (or multipart body):
// commands that send nothing (`flow lint`, `flow graph`) do not pay for loading it.
import type * as Undici from 'undici';
import { lazy } from '../project/index.js';

export const undici = lazy<typeof Undici>('undici');
