// The values one operation's steps send: valid and invalid bodies from its request schema (or
// what the project wrote), and query values for its documented query parameters. Before a run
// uses them, a short trial draws from each (bounded in draws and time): a schema that gives no
// value Ajv accepts is refused (the operation is not explored, with W_EXPLORE_SCHEMA), and what
// the trial found is where a later draw falls back when it finds nothing in its tries. So a
// valid step never sends a body Ajv refuses, an invalid one never a body Ajv accepts, and no
// draw loops forever.
import fc from 'fast-check';
import { type Operation, scalarText } from '../project/index.js';
import { invalidArbitrary, Sieve, validArbitrary, validWithEdges } from './arbitrary.js';
import { withWrittenRefs } from './model.js';
import type { RequestSchema } from './request-schema.js';
import { SchemaRefusal } from './schema-bounds.js';

/** The bodies of one operation: valid and invalid ones from its request schema, or what the project wrote. */
export interface Bodies {
  valid?: fc.Arbitrary<unknown>;
  invalid?: fc.Arbitrary<unknown>;
  /** query values for the documented query parameters the project does not write with a `{{…}}` */
  query?: fc.Arbitrary<Record<string, unknown>>;
  /** whether the request schema accepts a body (Ajv, with the description's own schema) */
  accepts?: (body: unknown) => boolean;
}

/** Values the trial keeps to fall back on, per kind. */
const POOL = 4;
const TRIAL_DRAWS = 60;
const TRIAL_MS = 300;

/** The bodies of `op`; throws SchemaRefusal when a schema gives nothing Ajv accepts. `seed`: the trial's. */
export function bodiesOf(op: Operation, described: RequestSchema | undefined, seed = 0): Bodies {
  if (described?.refused) throw described.refused;
  const query = queryArbitrary(op, described, seed);
  const validate = described?.body ? described.validate : undefined;
  return { ...bodyArbitraries(op, described, seed), ...(query ? { query } : {}), ...(validate ? { accepts: (b: unknown) => validate(b) } : {}) };
}

/**
 * Up to POOL values of `arb` that `keep` accepts, from at most TRIAL_DRAWS draws and TRIAL_MS.
 * A throw of `keep` (Ajv's budget) counts as not accepted.
 */
function trial<T>(arb: fc.Arbitrary<T>, keep: (v: T) => boolean, seed: number): T[] {
  const found: T[] = [];
  const until = Date.now() + TRIAL_MS;
  // in batches of POOL: one draw per fc.sample call would cost its set-up each time
  for (let drawn = 0; drawn < TRIAL_DRAWS && found.length < POOL && Date.now() < until; drawn += POOL) {
    for (const v of fc.sample(arb, { seed: (seed + drawn) | 0, numRuns: POOL })) {
      try {
        if (found.length < POOL && keep(v)) found.push(v);
      } catch {
        // not accepted
      }
    }
  }
  return found;
}

/** `arb` filtered by `keep`, falling back on the trial's values in turn. */
function sieved<T>(arb: fc.Arbitrary<T>, keep: (v: T) => boolean, pool: T[]): fc.Arbitrary<T> {
  let turn = 0;
  return new Sieve(arb, keep, () => pool[turn++ % pool.length]);
}

function queryArbitrary(op: Operation, described: RequestSchema | undefined, seed: number): fc.Arbitrary<Record<string, unknown>> | undefined {
  const params = (described?.query ?? []).filter((p) => !scalarText(op.queryParams[p.name]).includes('{{'));
  if (!params.length) return undefined;
  const arbs = Object.fromEntries(
    params.map((p) => {
      const pool = trial(validArbitrary(p.schema), p.validate, seed);
      if (!pool.length) throw new SchemaRefusal(p.pointer, `no value of query parameter ${p.name} that its schema accepts in ${TRIAL_DRAWS} draws`);
      return [p.name, sieved(validWithEdges(p.schema), p.validate, pool)];
    }),
  );
  return fc.record(arbs, { requiredKeys: params.filter((p) => p.required).map((p) => p.name) });
}

function bodyArbitraries(op: Operation, described: RequestSchema | undefined, seed: number): Pick<Bodies, 'valid' | 'invalid'> {
  if (op.bodyForm !== undefined) return {};
  const written = op.body;
  if (!described?.body || !described.validate) return written === undefined ? {} : { valid: fc.constant(written) };
  const { body, validate } = described;
  const refKeys = new Set(written && typeof written === 'object' && !Array.isArray(written) ? Object.keys(withWrittenRefs({}, written) as object) : []);
  const validPool = trial(validArbitrary(body), validate, seed);
  if (!validPool.length) throw new SchemaRefusal(described.bodyPointer ?? described.pointer, `no body its request schema accepts in ${TRIAL_DRAWS} draws`);
  const valid = sieved(validWithEdges(body, refKeys), validate, validPool).map((b) => withWrittenRefs(b, written));
  // the fields the project writes with a reference are sent as written, so a mutation there would be undone
  const refuses = (b: unknown) => b !== undefined && !validate(b);
  const invalidPool = trial(invalidArbitrary(body, refKeys) ?? fc.constant(undefined), refuses, seed);
  const invalid = invalidPool.length ? sieved(invalidArbitrary(body, refKeys)!, refuses, invalidPool).map((b) => withWrittenRefs(b, written)) : undefined;
  return { valid, invalid };
}
