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

/** Whether two creation times are one: the same text, or the same instant written two ways (`…:00Z`, `…:00.000Z`). */
export function sameTime(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}
