// A JSON Schema `pattern` is an ECMA-262 regular expression (Ajv compiles it with the `u` flag),
// and RE2 reads the same text differently: its `\s` lacks NBSP, BOM and U+2028, its `.` matches
// `\r`, `\k<name>` is a literal there and `[^]` opens a class. So the pattern is parsed as
// ECMA-262 (regexpp) and written out again for RE2 with nothing left to its reading: every
// character as `\x{…}`, every class and escape as the code point ranges JavaScript gives it.
// What has no linear-time equivalent (backreferences, lookaround) is refused, never approximated.
import { createRequire } from 'node:module';
import type { AST, RegExpParser } from '@eslint-community/regexpp';

/** Why a pattern that JavaScript would run cannot be matched in linear time with its meaning. */
export class PatternRefused extends Error {}

/** RE2's limit on `{n,m}`: it unrolls the repetition. */
const MAX_REPEAT = 1000;
const MAX_CODE_POINT = 0x10ffff;

type Ranges = [number, number][];

let parser: RegExpParser | undefined;

/** regexpp on the first pattern, as re2js (./regexp.ts): only contract checks compile patterns. */
function parse(pattern: string): AST.Pattern {
  parser ??= new (createRequire(import.meta.url)('@eslint-community/regexpp') as typeof import('@eslint-community/regexpp')).RegExpParser();
  return parser.parsePattern(pattern, 0, pattern.length, { unicode: true });
}

/** The RE2 source that matches exactly the strings `pattern` (ECMA-262, `u` flag) matches. */
export function ecmaToRe2(pattern: string): string {
  return disjunction(parse(pattern).alternatives);
}

function disjunction(alternatives: AST.Alternative[]): string {
  return alternatives.map((a) => a.elements.map(element).join('')).join('|');
}

function element(node: AST.Element): string {
  switch (node.type) {
    case 'Character':
    case 'CharacterSet':
    case 'CharacterClass':
      return klass(node);
    case 'Group':
      if (node.modifiers) throw new PatternRefused(`its modifiers \`${node.modifiers.raw}\` are not supported`);
      return `(?:${disjunction(node.alternatives)})`;
    case 'CapturingGroup':
      return `(?:${disjunction(node.alternatives)})`;
    case 'Quantifier':
      return `(?:${element(node.element)})${repeat(node)}`;
    case 'Assertion':
      if (node.kind === 'start') return '^';
      if (node.kind === 'end') return '$';
      if (node.kind === 'word') return node.negate ? '\\B' : '\\b';
      throw new PatternRefused(`it has a ${node.kind} \`${node.raw}\`, which RE2 cannot run`);
    case 'Backreference':
      throw new PatternRefused(`it has a backreference \`${node.raw}\`, which RE2 cannot run`);
    default:
      throw new PatternRefused(`\`${node.raw}\` is not supported`);
  }
}

function repeat(q: AST.Quantifier): string {
  const bound = q.max === Infinity ? q.min : q.max;
  if (bound > MAX_REPEAT) throw new PatternRefused(`\`${q.raw}\` repeats more than ${MAX_REPEAT} times, RE2's limit`);
  if (q.max === Infinity) return `{${q.min},}`;
  return q.min === q.max ? `{${q.min}}` : `{${q.min},${q.max}}`;
}

/** A character, an escape or a class, as one RE2 class of explicit code points. */
function klass(node: AST.Character | AST.CharacterSet | AST.CharacterClass): string {
  const ranges = codePoints(node);
  if (ranges.length === 0) return `[^\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}]`;
  const [[lo, hi]] = ranges as [[number, number]];
  if (ranges.length === 1 && lo === hi) return hex(lo);
  return `[${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`;
}

const hex = (c: number) => `\\x{${c.toString(16)}}`;

function codePoints(node: AST.Node): Ranges {
  switch (node.type) {
    case 'Character':
      return [[node.value, node.value]];
    case 'CharacterClassRange':
      return [[node.min.value, node.max.value]];
    case 'CharacterClass': {
      const union = normalize(node.elements.flatMap((e) => codePoints(e)));
      return node.negate ? complement(union) : union;
    }
    case 'CharacterSet': {
      const set = node.kind === 'property' ? nativeSet(node.raw.replace(/^\\P/, '\\p')) : ESCAPES[node.kind];
      // `.` is a negated set already; `\D`, `\S`, `\W`, `\P{…}` negate theirs
      return node.kind !== 'any' && node.negate ? complement(set) : set;
    }
    default:
      throw new PatternRefused(`\`${node.raw}\` is not supported`);
  }
}

const ESCAPES = {
  digit: [[0x30, 0x39]],
  word: normalize([
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ]),
  // WhiteSpace and LineTerminator of ECMA-262, Unicode's Zs included
  space: normalize(
    [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]
      .map((c): [number, number] => [c, c])
      .concat([[0x2000, 0x200a]]),
  ),
  // without the `s` flag, `.` is anything but a LineTerminator
  any: complement([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
} satisfies Record<string, Ranges>;

/** Sorted, merged, adjacent ranges joined. */
function normalize(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = out.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const properties = new Map<string, Ranges>();

/**
 * The code points of `\p{…}` as this JavaScript engine's Unicode tables have them (RE2's are of
 * another Unicode version): the engine finds the runs of them in a string of every code point
 * (~0.2 s a property, then kept; descriptions seldom have one).
 */
function nativeSet(escape: string): Ranges {
  let ranges = properties.get(escape);
  if (ranges) return ranges;
  const runs = new RegExp(`${escape}+`, 'gu');
  const found: Ranges = [];
  // Lone surrogates side by side would pair up: each is asked alone, and the string of the
  // rest of the BMP has none (so its index past 0xd7ff is the code point less 0x800).
  const one = new RegExp(`^${escape}$`, 'u');
  for (let c = 0xd800; c <= 0xdfff; c++) if (one.test(String.fromCodePoint(c))) found.push([c, c]);
  const bmp = (i: number) => (i < 0xd800 ? i : i + 0x800);
  for (const m of every(0, 0xd7ff).concat(every(0xe000, 0xffff)).matchAll(runs)) {
    const first = bmp(m.index);
    const last = bmp(m.index + m[0].length - 1);
    if (first <= 0xd7ff && last >= 0xe000) found.push([first, 0xd7ff], [0xe000, last]);
    else found.push([first, last]);
  }
  for (const m of every(0x10000, MAX_CODE_POINT).matchAll(runs)) found.push([0x10000 + m.index / 2, 0x10000 + (m.index + m[0].length) / 2 - 1]);
  properties.set(escape, (ranges = normalize(found)));
  return ranges;
}

/** The code points `from`..`to` in a string, in chunks (a call takes at most ~65k arguments). */
function every(from: number, to: number): string {
  const chunks: string[] = [];
  for (let base = from; base <= to; base += 0x1000)
    chunks.push(String.fromCodePoint(...Array.from({ length: Math.min(0x1000, to - base + 1) }, (_, i) => base + i)));
  return chunks.join('');
}
