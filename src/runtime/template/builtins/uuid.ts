// `{{$.uuid}}`: a fresh UUID version 4 on every use.
import { randomUUID } from 'node:crypto';
import type { Resolver } from '../frame.js';

export const uuid: Resolver<{ kind: 'uuid' }> = () => randomUUID();
