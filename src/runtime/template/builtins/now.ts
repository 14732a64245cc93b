// `{{$.now}}`, `{{$.now + 1h}}`, `{{$.now - 30m}}`: ISO 8601 in UTC with milliseconds
// (`2024-05-01T12:00:00.000Z`). The parser turned the offset into milliseconds.
import type { Resolver } from '../frame.js';

export const now: Resolver<{ kind: 'now'; offsetMs: number }> = (expr, frame) => {
  const base = frame.ctx.now ? frame.ctx.now().getTime() : Date.now();
  return new Date(base + expr.offsetMs).toISOString();
};
