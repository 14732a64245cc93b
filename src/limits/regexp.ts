// Patterns written in an untrusted description (`pattern`, `patternProperties`) run on RE2
// (re2js, pure JavaScript): matching is linear in the input, so `^(a+)+$` against a long
// string ending in `b` costs microseconds instead of the exponential backtracking of the
// built-in engine. The pattern keeps its JavaScript meaning (./ecma-to-re2.ts); what RE2
// cannot run in linear time (lookaround, backreferences) is refused with E_CONTRACT_PATTERN.
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { FlowError } from '../errors.js';
import { ecmaToRe2, PatternRefused } from './ecma-to-re2.js';

let engine: typeof RE2JS | undefined;

/**
 * re2js on the first pattern: it is 260 KB of JavaScript (~13 ms to load), and every stage that
 * reads untrusted input imports this folder, while only contract checks compile patterns.
 */
function re2(): typeof RE2JS {
  return (engine ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS);
}

export interface LinearRegExp {
  test(input: string): boolean;
  /** `/source/`, as a RegExp prints: Ajv keys its cache of compiled patterns by it */
  toString(): string;
}

/**
 * A RegExp-like object for `pattern` (ECMA-262, `u` flag, as Ajv reads it), matched in linear
 * time. A SyntaxError for a broken pattern; E_CONTRACT_PATTERN for one that cannot run in linear time.
 */
export function linearRegExp(pattern: string): LinearRegExp {
  // The built-in engine judges the syntax first (compiling runs nothing): a broken pattern gets
  // its usual SyntaxError, and what is left to refuse is what cannot run in linear time.
  new RegExp(pattern, 'u');
  let re: RE2JS;
  try {
    re = re2().compile(ecmaToRe2(pattern));
  } catch (err) {
    const why = err instanceof PatternRefused ? err.message : `RE2 cannot run it (${(err as Error).message})`;
    throw new FlowError('E_CONTRACT_PATTERN', `pattern /${pattern}/ cannot be matched in linear time: ${why}`, { cause: err });
  }
  // Without its own toString every pattern would print "[object Object]", and Ajv, which
  // keys compiled patterns by that, would match each against the first one compiled.
  return { test: (input: string) => re.test(input), toString: () => `/${pattern}/` };
}
