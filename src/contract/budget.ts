// What checking one response may cost. Everything in the check is untrusted: the response,
// and the description whose schemas Ajv compiles into code. Three bounds hold it:
// - the body is measured first, without recursion: nested deeper than MAX_DEPTH (Ajv's
//   generated code recurses per level) or holding more than MAX_VALUES values, it is not checked;
// - patterns run on RE2 (src/limits), linear in the input;
// - the rest (uniqueItems compares every pair, nested anyOf through recursive $refs can branch
//   exponentially) is stopped by the clock: the code Ajv generates ticks this budget at the
//   start of every function and every loop iteration, and a tick past the deadline throws.
import { FlowError } from '../errors.js';
import { measure } from '../limits/index.js';

/** Nesting of arrays and objects in one response body (a real one rarely passes 20). */
const MAX_DEPTH = 512;
/** Values (scalars, arrays, objects) in one response body: the 10 MiB body cap holds up to ~5M. */
const MAX_VALUES = 2_000_000;
/** Time to check one response against its schema. */
const MAX_CHECK_MS = 1000;
/** The clock is read once per this many ticks: a tick is a counter increment. */
const TICKS_PER_CLOCK = 1024;

/** Thrown through Ajv's generated code when the time is up; the validator turns it into E_CONTRACT_LIMIT. */
class OutOfTime extends Error {}

export class Budget {
  #ticks = 0;
  #deadline = Infinity;

  constructor(readonly maxMs: number = MAX_CHECK_MS) {}

  /** Called by the generated code (see instrument). */
  tick(): void {
    if (++this.#ticks < TICKS_PER_CLOCK) return;
    this.#ticks = 0;
    if (performance.now() > this.#deadline) throw new OutOfTime();
  }

  /** `validate(data)` within the bounds; E_CONTRACT_LIMIT past one of them. */
  run<T>(where: string, data: unknown, validate: (data: unknown) => T): T {
    const size = measure(data, { maxDepth: MAX_DEPTH, maxValues: MAX_VALUES });
    if (size.over === 'depth') throw limitError(`the response nests deeper than ${MAX_DEPTH} levels`, where);
    if (size.over === 'values') throw limitError(`the response holds more than ${MAX_VALUES.toLocaleString('en-US')} values`, where);
    this.#ticks = 0;
    this.#deadline = performance.now() + this.maxMs;
    try {
      return validate(data);
    } catch (err) {
      if (err instanceof OutOfTime) throw limitError(`checking the response took more than ${this.maxMs} ms: stopped`, where);
      // a stack overflow in code generated from a hostile schema is a limit too, not a crash
      if (err instanceof RangeError) throw limitError(`checking the response overflowed the stack (${err.message})`, where);
      throw err;
    } finally {
      this.#deadline = Infinity;
    }
  }
}

function limitError(what: string, where: string): FlowError {
  return new FlowError('E_CONTRACT_LIMIT', `${what}; it is not checked against the schema at ${where}`);
}

/**
 * Ajv's `code.process`: a budget tick at the start of each generated function and loop body.
 * The generated code is the body of `new Function('self', 'scope', code)`, `self` the Ajv
 * instance, which carries the budget (see Schemas); it is looked up once, when the validator
 * is made, not on every tick. The insertion adds no quote, so a match inside a string literal
 * cannot change the code.
 */
export function instrument(code: string): string {
  const ticked = code.replace(/(return function \w+\(.*?\}=\{\}\)\{)/, '$1budget$.tick();').replace(/\bfor\(([^(){}]*)\)\{/g, 'for($1){budget$.tick();');
  return `const budget$ = self.budget;${ticked}`;
}
