// Patterns written in an untrusted description (`pattern`, `patternProperties`) run on RE2
// (re2js, pure JavaScript): matching is linear in the input, so `^(a+)+$` against a long
// string ending in `b` costs microseconds instead of the exponential backtracking of the
// built-in engine. RE2 has no lookaround or backreference (no linear-time algorithm exists):
// such a pattern does not compile, and the caller reports it.
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

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

/** A RegExp-like object for `pattern`, matched in linear time; throws on a pattern RE2 cannot run. */
export function linearRegExp(pattern: string): LinearRegExp {
  // The built-in engine judges the syntax first (compiling runs nothing): a broken pattern gets
  // its usual SyntaxError, and what is left for RE2 to refuse is what it cannot run in linear time.
  new RegExp(pattern, 'u');
  let re: RE2JS;
  try {
    re = re2().compile(re2().translateRegExp(pattern));
  } catch (err) {
    throw new SyntaxError(`pattern /${pattern}/ cannot be matched in linear time (lookaround and backreferences cannot; RE2 says: ${(err as Error).message})`, {
      cause: err,
    });
  }
  // Without its own toString every pattern would print "[object Object]", and Ajv, which
  // keys compiled patterns by that, would match each against the first one compiled.
  return { test: (input: string) => re.test(input), toString: () => `/${pattern}/` };
}
