// Parsing of `{{ ... }}` references (docs/format.md#references). Pure: no project, no runtime.
// The runtime renders these parts; the graph and lint read their scopes.

import { isSecretRef, parseDuration } from '../project/index.js';
import { FAKER_NAMES, fakerKey, fakerName, type FakerName } from './faker.js';
import { didYouMean } from './suggest.js';

export type Codec = 'base64' | 'hex' | 'url';

export type Expr =
  | { kind: 'uuid' }
  | { kind: 'now'; offsetMs: number }
  /** `method` as written; `name` the generator it means (spellings vary: first_name, firstName) */
  | { kind: 'faker'; method: string; name: FakerName }
  | { kind: 'codec'; codec: Codec; op: 'encode' | 'decode'; arg: TemplatePart[] }
  /** `{{'…'}}`: the quoted text as it is, never rendered (how a literal `{{` is written: `{{'{{'}}`) */
  | { kind: 'literal'; text: string }
  | { kind: 'env'; name: string }
  | { kind: 'secret'; name: string }
  /** `<scope>.<field>` or `<scope>[n].<field>`; scope is an actor or a resource (decided by the project) */
  | { kind: 'scoped'; scope: string; index?: number; field: string; path: string[] };

export type TemplatePart =
  { kind: 'text'; text: string } | { kind: 'ref'; expr: Expr; raw: string; offset: number } | { kind: 'error'; raw: string; offset: number; message: string };

/** True when the string contains at least one `{{`. Cheap pre-check for hot paths. */
export function hasTemplate(text: string): boolean {
  return text.includes('{{');
}

/**
 * A key the run draws for itself (docs/format.md#run-drawn): an environment value of text,
 * quoted literals and `{{$.uuid}}`, at least one (`bucket-{{$.uuid}}`). Drawn once per run, it
 * names nothing that was there before the run: what a write makes at it is the run's.
 */
export function isRunDrawn(value: unknown): boolean {
  if (typeof value !== 'string' || !hasTemplate(value) || value.length > 1000) return false;
  let uuid = false;
  for (const part of parseTemplate(value)) {
    if (part.kind === 'error') return false;
    if (part.kind !== 'ref') continue;
    if (part.expr.kind === 'uuid') uuid = true;
    else if (part.expr.kind !== 'literal') return false;
  }
  return uuid;
}

/** Levels of a value read at most: deeper than a project file may nest (its loader stops at 64). */
const MAX_VALUE_DEPTH = 100;

/**
 * Whether a value the project writes holds a reference: a `{{` in one of its strings, or a
 * `!secret`. Allocates nothing: the graph asks it of every request value before walking one.
 */
export function holdsReference(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasTemplate(value);
  if (typeof value !== 'object' || value === null || depth > MAX_VALUE_DEPTH) return false;
  if (isSecretRef(value)) return true;
  if (Array.isArray(value)) {
    for (const v of value) if (holdsReference(v, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (holdsReference((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/**
 * Split a string into text and reference parts. Never throws: a malformed reference
 * becomes an `error` part that lint reports and the runtime refuses to send.
 */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let i = 0;
  let textStart = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) break;
    const close = findClose(text, open + 2);
    if (close < 0) {
      // An unclosed `{{` is literal text, as in most template engines; lint flags it.
      parts.push(...textPart(text.slice(textStart, open)));
      const rest = text.slice(open);
      parts.push({ kind: 'error', raw: rest, offset: open, message: `unclosed "{{" in "${excerpt(rest)}"` });
      textStart = text.length;
      break;
    }
    if (open > textStart) parts.push(...textPart(text.slice(textStart, open)));
    const raw = text.slice(open, close + 2);
    const inner = text.slice(open + 2, close);
    const parsed = parseExpr(inner.trim());
    if (typeof parsed === 'string') parts.push({ kind: 'error', raw, offset: open, message: parsed });
    else parts.push({ kind: 'ref', expr: parsed, raw, offset: open });
    i = close + 2;
    textStart = i;
  }
  if (textStart < text.length) parts.push(...textPart(text.slice(textStart)));
  return parts;
}

function excerpt(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function textPart(text: string): TemplatePart[] {
  return text ? [{ kind: 'text', text }] : [];
}

/**
 * Index of the `}}` closing a reference opened before `from`; quotes and nested `{{ }}` are
 * skipped (codec arguments hold both). A quote left open falls back to the first `}}`, so a
 * stray apostrophe spoils one reference, not the rest of the string.
 */
function findClose(text: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      else if (c === '{' && text[i + 1] === '{') {
        depth++;
        i++;
      } else if (c === '}' && text[i + 1] === '}' && depth > 0) {
        depth--;
        i++;
      }
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '}' && text[i + 1] === '}') return i;
  }
  return quote ? text.indexOf('}}', from) : -1;
}

const IDENT = '[A-Za-z_][A-Za-z0-9_-]*';
const SCOPED_RE = new RegExp(`^(${IDENT})(?:\\[(-?\\d+)\\])?\\.(${IDENT}|\\d+)((?:\\.(?:${IDENT}|\\d+))*)$`);
const NOW_RE = /^\$\.now\s*(?:([+-])\s*(\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)))?$/;
const FAKER_RE = /^\$\.faker\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)$/;
// One quoted argument; inside it a backslash escapes the quote or itself.
const CODEC_RE = /^\$\.(base64|hex|url)\.(encode|decode)\(\s*(?:'((?:\\[\s\S]|[^\\'])*)'|"((?:\\[\s\S]|[^\\"])*)")\s*\)$/;

// A quoted text; inside it a backslash escapes the quote or itself.
const LITERAL_RE = /^(?:'((?:\\[\s\S]|[^\\'])*)'|"((?:\\[\s\S]|[^\\"])*)")$/;

/** Parse the inside of `{{ }}`; returns an error message string when it is not a known form. */
export function parseExpr(inner: string): Expr | string {
  if (!inner) return 'empty reference "{{}}"';
  const quoted = LITERAL_RE.exec(inner);
  if (quoted) return { kind: 'literal', text: (quoted[1] ?? quoted[2]).replace(/\\([\s\S])/g, '$1') };
  if (inner.startsWith('$')) return parseBuiltin(inner);
  const m = SCOPED_RE.exec(inner);
  if (!m) return `"${inner}" is not a reference of the form scope.field`;
  const [, scope, index, field, rest] = m;
  const path = rest ? rest.slice(1).split('.') : [];
  if (scope === 'env' || scope === 'secret') {
    if (index !== undefined || path.length) return `"${inner}": ${scope} takes one name, as ${scope}.NAME`;
    return { kind: scope, name: field };
  }
  if (index !== undefined) {
    // from 1, the n-th instance; from -1 backwards, the n-th newest that has the field
    const n = Number(index);
    if (n === 0) return `"${inner}": instance indexes count from 1 (the first) or from -1 (the newest)`;
    return { kind: 'scoped', scope, index: n, field, path };
  }
  return { kind: 'scoped', scope, field, path };
}

function parseBuiltin(inner: string): Expr | string {
  if (inner === '$.uuid') return { kind: 'uuid' };
  const now = NOW_RE.exec(inner);
  if (now) {
    if (!now[1]) return { kind: 'now', offsetMs: 0 };
    const ms = parseDuration(now[2]) ?? 0;
    return { kind: 'now', offsetMs: now[1] === '-' ? -ms : ms };
  }
  const faker = FAKER_RE.exec(inner);
  if (faker) {
    const method = faker[1];
    const name = fakerName(method);
    if (name) return { kind: 'faker', method, name };
    // Rejected here, not only when rendered: lint then reports the typo before a run.
    const hint = didYouMean(fakerKey(method), FAKER_NAMES) || `; known: ${FAKER_NAMES.join(', ')}`;
    return `"${inner}": unknown faker "${method}"${hint}`;
  }
  const codec = CODEC_RE.exec(inner);
  if (codec) {
    const body = (codec[3] ?? codec[4]).replace(/\\([\s\S])/g, '$1');
    return { kind: 'codec', codec: codec[1] as Codec, op: codec[2] as 'encode' | 'decode', arg: parseTemplate(body) };
  }
  if (/^\$\.(random|timestamp|date)/.test(inner)) return `"${inner}" does not exist: only $.uuid, $.now and $.faker.* generate values`;
  return `"${inner}" is not a known builtin ($.uuid, $.now, $.faker.*, $.base64/$.hex/$.url)`;
}

/**
 * Text written so that it is never rendered: every `{{` becomes `{{'{{'}}`, which renders to
 * `{{`. For values from outside (an API description's enum or example, a server's answer)
 * written into a project file: they are data, not templates.
 */
export function escapeTemplate(text: string): string {
  return text.includes('{{') ? text.replaceAll('{{', "{{'{{'}}") : text;
}

/** Every reference expression in a parsed template, nested codec arguments included. */
export function* refsOf(parts: TemplatePart[]): Generator<Expr> {
  for (const p of parts) {
    if (p.kind !== 'ref') continue;
    yield p.expr;
    if (p.expr.kind === 'codec') yield* refsOf(p.expr.arg);
  }
}

/** Whether a template makes a run-unique value (`{{$.uuid}}` in it: docs/format.md#run-unique). */
export function makesRunUnique(text: string): boolean {
  for (const expr of refsOf(parseTemplate(text))) if (expr.kind === 'uuid') return true;
  return false;
}

type RefPart = Extract<TemplatePart, { kind: 'ref' }>;

/**
 * `text` with each reference replaced by what `replace` gives for it, the rest as written; a
 * reference it gives `undefined` for stays, and the references inside its codec argument
 * (`{{$.base64.encode('{{item.id}}')}}`) are offered in turn. Read by the parser, not a
 * pattern: spaces inside the braces, quotes and `}}` inside an argument are what they are here.
 */
export function mapRefs(text: string, replace: (ref: RefPart) => string | undefined): string {
  if (!text.includes('{{')) return text;
  return parseTemplate(text)
    .map((p) => {
      if (p.kind === 'text') return p.text;
      if (p.kind === 'error') return p.raw;
      const out = replace(p);
      if (out !== undefined) return out;
      return p.expr.kind === 'codec' ? `{{${mapRefs(p.raw.slice(2, -2), replace)}}}` : p.raw;
    })
    .join('');
}

/** Whether `text` refers to `scope` (`{{item.id}}`, `{{ item[2].id }}`, inside a codec argument too). */
export function refersTo(text: string, scope: string): boolean {
  if (!text.includes('{{')) return false;
  for (const expr of refsOf(parseTemplate(text))) if (expr.kind === 'scoped' && expr.scope === scope) return true;
  return false;
}

/** The inside of one reference as written, trimmed: `{{ product.id }}` -> `product.id`. */
export function refSource(raw: string): string {
  return raw.startsWith('{{') && raw.endsWith('}}') ? raw.slice(2, -2).trim() : raw;
}
