// `{{$.uuid}}`: a fresh UUID version 4 on every use. With a seed in the context (explore's
// --seed), drawn from the seeded faker instead, so that the same seed sends the same UUIDs.
import { randomUUID } from 'node:crypto';
import type { Resolver } from '../frame.js';
import { fakerFor } from './faker.js';

export const uuid: Resolver<{ kind: 'uuid' }> = (_expr, frame) => (frame.ctx.faker ? fakerFor(frame.ctx).string.uuid() : randomUUID());
