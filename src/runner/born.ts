// When an instance was made, as its server says (`created_on`, `createdAt`, `created_at`): what
// tells an instance from another that took its id after a delete. A server that reuses ids
// (the largest in use plus one) gives a deleted id to the next create, maybe someone else's; the
// clean-up's read of that id then finds their instance, which must not be taken for the run's.
import { isPlainObject } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';

const CREATED = /^(created|created_?(at|on|time|date)|creation_?(time|date)|date_?created|inserted_?at)$/i;

/** The creation time at the top of a JSON answer, or in its one object that has one (`{"issue": {"created_on": …}}`). */
export function bornIn(res: FlowResponse): string | undefined {
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return undefined;
  }
  if (!isPlainObject(body)) return undefined;
  const own = stamp(body);
  if (own !== undefined) return own;
  const inner = Object.values(body).flatMap((v) => (isPlainObject(v) && stamp(v) !== undefined ? [stamp(v)!] : []));
  return inner.length === 1 ? inner[0] : undefined;
}

function stamp(o: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(o).slice(0, 200)) if (CREATED.test(k) && (typeof v === 'string' || typeof v === 'number')) return String(v).slice(0, 100);
  return undefined;
}

/**
 * A creation time written without its zone (`2026-11-29 02:07:51`) is read as UTC and may be off
 * by up to 14 hours either way: only one older than a day and two hours is surely not of now.
 */
const LONG_BEFORE_MS = 26 * 3600_000;

/**
 * Whether a creation time (ISO 8601, or seconds or milliseconds since 1970) is long before
 * `now`: a create that answers it handed back something made before the request.
 */
export function bornLongBefore(born: string, now = Date.now()): boolean {
  const n = /^\d{9,13}$/.test(born) ? Number(born) * (born.length <= 10 ? 1000 : 1) : Date.parse(born);
  return Number.isFinite(n) && n < now - LONG_BEFORE_MS;
}

/** Whether two creation times are one: the same text, or the same instant written two ways (`…:00Z`, `…:00.000Z`). */
export function sameTime(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}
