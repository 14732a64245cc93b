// A description's `pattern` is ECMA-262 and runs on RE2: the two must agree on every string, or
// a contract check passes what JavaScript refuses (or the reverse) without a word. Each pattern
// here is matched by both engines and the answers compared; what RE2 cannot run is refused.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { linearRegExp } from '../../src/limits/index.js';

/** The characters where RE2's reading of a pattern differed from JavaScript's, and ordinary ones. */
const CHARS = [
  'a',
  'b',
  'Z',
  '1',
  '_',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u3000',
  '\ufeff',
  'é',
  'ſ',
  '\u212a',
  '😀',
  '\ud800',
  '-',
  '[',
];
const ATOMS = [
  'a',
  'b',
  '.',
  '\\s',
  '\\S',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\b',
  '\\B',
  '[^a]',
  '[^]',
  '[]',
  '[\\s\\d]',
  '[^\\S]',
  '[\\W_]',
  '[a-c\\u00a0]',
  '\\p{L}',
  '\\P{L}',
  '\\p{Zs}',
  '[^\\p{Lu}]',
  '\\r',
  '\\u2028',
  '\\uFEFF',
  '\\u{1F600}',
  '[\\-]',
  '\\[',
];

const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{0,3}', '{2,}', '*?')).map(([n, q]) => (/^\\[bB]$/.test(n) ? n : `(?:${n})${q}`)),
    fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((ns) => ns.join('')),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a}|${b})`),
  ),
})).node;

const anchored = fc.tuple(fc.boolean(), pattern, fc.boolean()).map(([s, p, e]) => `${s ? '^' : ''}${p}${e ? '$' : ''}`);
const input = fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((cs) => cs.join(''));

describe('a pattern means on RE2 what it means in JavaScript', () => {
  test.each([
    ['^\\s$', '\u00a0'],
    ['^\\s$', '\ufeff'],
    ['^\\s$', '\u2028'],
    ['^\\S$', '\u00a0'],
    ['^a.b$', 'a\rb'],
    ['^a.b$', 'a\u2028b'],
    ['^[^]$', 'x'],
    ['^[]$', ''],
    ['^\\p{Lu}$', '\u212a'],
  ])('%j against %j', (source, s) => {
    expect(linearRegExp(source).test(s)).toBe(new RegExp(source, 'u').test(s));
  });

  test('on random patterns and strings, both engines answer alike', () => {
    fc.assert(
      fc.property(anchored, fc.array(input, { minLength: 1, maxLength: 5 }), (source, strings) => {
        const native = new RegExp(source, 'u');
        const linear = linearRegExp(source);
        for (const s of strings) expect([source, s, linear.test(s)]).toEqual([source, s, native.test(s)]);
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});

describe('what RE2 cannot run is refused with E_CONTRACT_PATTERN, saying why', () => {
  test.each([
    ['^(?<x>a)\\k<x>$', 'a backreference `\\k<x>`'],
    ['^(a)\\1$', 'a backreference `\\1`'],
    ['^(?=.*\\d).+$', 'a lookahead `(?=.*\\d)`'],
    ['(?<!a)b', 'a lookbehind `(?<!a)`'],
    ['^a{0,1001}$', '`a{0,1001}` repeats more than 1000 times'],
    ['^a{1001,}$', '`a{1001,}` repeats more than 1000 times'],
  ])('%s', (source, why) => {
    expect(() => linearRegExp(source)).toThrow(expect.objectContaining({ code: 'E_CONTRACT_PATTERN', message: expect.stringContaining(why) }));
  });

  test('a repetition of exactly 1000 runs', () => {
    expect(linearRegExp('^a{0,1000}$').test('a'.repeat(1000))).toBe(true);
    expect(linearRegExp('^a{0,1000}$').test('a'.repeat(1001))).toBe(false);
  });

  test('a broken pattern is a SyntaxError, as JavaScript says it', () => {
    expect(() => linearRegExp('(a')).toThrow(SyntaxError);
  });
});
