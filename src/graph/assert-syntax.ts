// The assert grammar of docs/format.md#assert-grammar: `<path> <op> <literal>`, `<path> exists`, `<path> not exists`.
// Parsing is pure (no response needed), so it lives here where lint checks the syntax; the
// runtime evaluates the parsed expressions. Errors are E_ASSERT_SYNTAX with the 1-based column.
import { FlowError } from '../errors.js';
import { checkPath, compileRegex } from './extract-syntax.js';
import { parseCached } from './parsed.js';
import type { TemplatePart } from './template.js';

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'matches';
type AssertOp = CompareOp | 'exists' | 'not exists';

type AssertLiteral =
  | { kind: 'value'; value: string | number | boolean | null }
  /** `{{…}}`, or a quoted string holding one: the caller renders `parts` and passes the value */
  | { kind: 'template'; text: string; parts: TemplatePart[]; quoted: boolean };

export interface AssertExpr {
  /** the expression as written */
  source: string;
  path: string;
  op: AssertOp;
  /** absent for exists / not exists */
  expected?: AssertLiteral;
  /** for `matches` with a literal pattern: compiled once at parse time */
  regex?: RegExp;
}

const SYMBOL_OPS = ['==', '!=', '<=', '>=', '<', '>'] as const; // longest first
const WORD_OPS = ['contains', 'matches', 'exists'] as const;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_][\w-]*/y;
const OPS_HELP = '==, !=, <, <=, >, >=, contains, matches, exists or not exists';
const VALUE_HELP = 'a value: a quoted string (\'…\' or "…"), a number, true, false, null or {{…}}';

const cache = new Map<string, AssertExpr | FlowError>();

/** Parse an assertion; throws FlowError E_ASSERT_SYNTAX. Cached: the same text parses once. */
export function parseAssert(source: string): AssertExpr {
  let hit = cache.get(source);
  if (!hit) {
    try {
      hit = new Parser(source).parse();
    } catch (err) {
      if (!(err instanceof FlowError)) throw err;
      hit = err;
    }
    if (cache.size > 5000) cache.clear();
    cache.set(source, hit);
  }
  if (hit instanceof FlowError) throw hit;
  return hit;
}

/** The E_ASSERT_SYNTAX error of an expression, or undefined when it parses (for lint). */
export function checkAssert(source: string): FlowError | undefined {
  try {
    parseAssert(source);
    return undefined;
  } catch (err) {
    return err as FlowError;
  }
}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): AssertExpr {
    this.ws();
    if (this.i >= this.s.length) this.fail('the assertion is empty');
    const pathAt = this.i;
    const path = this.path();
    const bad = checkPath(path);
    if (bad) this.fail(bad, pathAt);
    this.ws();
    const op = this.op();
    if (op === 'exists' || op === 'not exists') {
      this.end();
      return { source: this.s, path, op };
    }
    this.ws();
    const valueAt = this.i;
    const expected = this.literal();
    this.end();
    const expr: AssertExpr = { source: this.s, path, op, expected };
    if (op === 'matches') expr.regex = this.pattern(expected, valueAt);
    if ((op === '<' || op === '<=' || op === '>' || op === '>=') && expected.kind === 'value') {
      const t = typeof expected.value;
      if (t !== 'number' && t !== 'string') this.fail(`${op} compares numbers or strings, not ${String(expected.value)}`, valueAt);
    }
    return expr;
  }

  /** `$` then anything up to whitespace outside brackets, parentheses and quotes. */
  private path(): string {
    const start = this.i;
    if (this.s[this.i] !== '$') this.fail('expected a path starting with $ (e.g. $.data.id, $.status_code)');
    let depth = 0;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === "'" || c === '"') {
        this.skipString(c);
        continue;
      }
      if (c === '[' || c === '(') depth++;
      else if (c === ']' || c === ')') depth--;
      else if (depth === 0 && /\s/.test(c)) break;
      else if (depth === 0 && (c === '=' || c === '!' || c === '<' || c === '>')) break;
      this.i++;
    }
    if (depth > 0) this.fail('unclosed "[" or "(" in the path', start);
    return this.s.slice(start, this.i);
  }

  private op(): AssertOp {
    if (this.i >= this.s.length) this.fail(`expected an operator after the path: ${OPS_HELP}`);
    for (const op of SYMBOL_OPS) if (this.s.startsWith(op, this.i)) return ((this.i += op.length), op);
    const at = this.i;
    const word = this.word();
    if (word === 'not') {
      this.ws();
      if (this.word() === 'exists') return 'not exists';
      this.fail('expected "exists" after "not"');
    }
    if ((WORD_OPS as readonly string[]).includes(word ?? '')) return word as AssertOp;
    if (this.s[this.i] === '=') this.fail('use == to compare (a single = is not an operator)');
    this.fail(`expected an operator: ${OPS_HELP}`, at);
  }

  private word(): string | undefined {
    WORD.lastIndex = this.i;
    const m = WORD.exec(this.s);
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  private literal(): AssertLiteral {
    const c = this.s[this.i];
    if (c === undefined) this.fail(`expected ${VALUE_HELP}`);
    if (c === "'" || c === '"') {
      const text = this.readString(c);
      return text.includes('{{') ? { kind: 'template', text, parts: parseCached(text), quoted: true } : { kind: 'value', value: text };
    }
    if (this.s.startsWith('{{', this.i)) {
      const text = this.template();
      return { kind: 'template', text, parts: parseCached(text), quoted: false };
    }
    NUMBER.lastIndex = this.i;
    const num = NUMBER.exec(this.s);
    if (num) {
      this.i += num[0].length;
      return { kind: 'value', value: Number(num[0]) };
    }
    const at = this.i;
    const word = this.word();
    if (word === 'true' || word === 'false') return { kind: 'value', value: word === 'true' };
    if (word === 'null') return { kind: 'value', value: null };
    if (word) this.fail(`expected ${VALUE_HELP}; quote text: '${word}'`, at);
    this.fail(`expected ${VALUE_HELP}`, at);
  }

  /** A quoted string; a backslash escapes the next character. */
  private readString(quote: string): string {
    const start = this.i;
    let out = '';
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\' && this.i + 1 < this.s.length) {
        const next = this.s[this.i + 1];
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next === quote || next === '\\' ? next : `\\${next}`;
        this.i += 2;
        continue;
      }
      if (c === quote) {
        this.i++;
        return out;
      }
      out += c;
      this.i++;
    }
    this.fail('unterminated string', start);
  }

  private skipString(quote: string): void {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== quote) this.i += this.s[this.i] === '\\' ? 2 : 1;
    if (this.i >= this.s.length) this.fail('unterminated string in the path', start);
    this.i++;
  }

  /** `{{ … }}`, quotes inside skipped (`{{$.base64.encode('}}')}}`). */
  private template(): string {
    const start = this.i;
    this.i += 2;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === "'" || c === '"') {
        this.skipString(c);
        continue;
      }
      if (c === '}' && this.s[this.i + 1] === '}') {
        this.i += 2;
        return this.s.slice(start, this.i);
      }
      this.i++;
    }
    this.fail('unclosed "{{"', start);
  }

  private pattern(expected: AssertLiteral, at: number): RegExp | undefined {
    if (expected.kind === 'template') return undefined; // compiled once rendered
    if (typeof expected.value !== 'string') this.fail("matches needs a quoted regular expression, e.g. '^ord_[0-9]+$'", at);
    const re = compileRegex(expected.value);
    if (typeof re === 'string') this.fail(re, at);
    return re;
  }

  private end(): void {
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected text after the assertion (quote a value that has spaces)');
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  private fail(message: string, at = this.i): never {
    throw new FlowError('E_ASSERT_SYNTAX', `${message} (column ${at + 1} of ${JSON.stringify(this.s)})`, {
      details: { expression: this.s, column: at + 1, position: at },
    });
  }
}
