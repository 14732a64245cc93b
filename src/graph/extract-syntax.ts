// The forms of docs/format.md#extraction that can be checked without a response: the path roots that extract and
// assert share, regular expressions and XPath expressions. Here, not in the runtime, so that
// lint can report at lint time what a run would fail on; the runtime reads responses with them.
import { createRequire } from 'node:module';
import type * as XPath from 'xpath';
import type { ExtractSource, ExtractSpec } from '../project/index.js';

// ---------------------------------------------------------------------------------------
// Paths (docs/format.md#extraction): `$.data…` JSONPath over the body, `$.headers.<Name>`, `$.cookies.<name>`,
// `$.status_code`; and `$.body`, the body as text (ours, for asserts like `$.body contains 'ok'`).

export type PathRef =
  | { root: 'data'; path: string; /** `$.data…` -> `$…`, for JSONPath */ jsonPath: string; simple?: Array<string | number>; many: boolean }
  | { root: 'headers'; path: string; name: string; many: false }
  | { root: 'cookies'; path: string; name: string; many: false }
  | { root: 'status_code'; path: string; many: false }
  | { root: 'body'; path: string; many: false };

const PATH_ROOTS = '$.data…, $.headers.<Name>, $.cookies.<name>, $.status_code or $.body';

const NAMED_ROOT = /^\$\.(headers|cookies)(?:\.([^.[\]\s]+)|\[(['"])([^'"]+)\3\])$/;
const SIMPLE_SEGMENT = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(['"])([^'"\]]*)\3\]/y;
/** `[*]` or `.*`: one value per match (one resource instance each). Other multi-match forms give their first match. */
const FAN_OUT = /\[\s*\*\s*\]|\.\*/;

const pathCache = new Map<string, PathRef | string>();

/** Parse a path; a string result is the reason it is not a valid path. Pure and cached. */
export function parsePath(path: string): PathRef | string {
  let hit = pathCache.get(path);
  if (hit === undefined) {
    hit = parsePathUncached(path.trim());
    if (pathCache.size > 5000) pathCache.clear();
    pathCache.set(path, hit);
  }
  return hit;
}

/** The reason a path is invalid, or undefined when it is fine (for lint and assert parsing). */
export function checkPath(path: string): string | undefined {
  const p = parsePath(path);
  return typeof p === 'string' ? p : undefined;
}

/** True for `[*]`/`.*` paths: extraction gives one instance per match. */
export function isFanOutPath(path: string): boolean {
  const p = parsePath(path);
  return typeof p !== 'string' && p.many;
}

function parsePathUncached(path: string): PathRef | string {
  if (path === '$.status_code') return { root: 'status_code', path, many: false };
  if (path === '$.body') return { root: 'body', path, many: false };
  if (path === '$.data' || path.startsWith('$.data.') || path.startsWith('$.data[')) {
    const rest = path.slice('$.data'.length);
    if (rest.startsWith('.') && rest.length === 1) return `"${path}" ends with a dot`;
    return { root: 'data', path, jsonPath: `$${rest}`, simple: simpleSegments(rest), many: FAN_OUT.test(rest) };
  }
  const named = NAMED_ROOT.exec(path);
  if (named) {
    const name = named[2] ?? named[4];
    return named[1] === 'headers' ? { root: 'headers', path, name: name.toLowerCase(), many: false } : { root: 'cookies', path, name, many: false };
  }
  if (/^\$\.(headers|cookies)\.?$/.test(path)) return `"${path}" needs a name, as ${path.replace(/\.$/, '')}.<name>`;
  return `"${path}" does not start with one of ${PATH_ROOTS}`;
}

/** `.a.b[0]['c']` -> ['a','b',0,'c'] when the path has only plain steps (a fast walk, no JSONPath). */
function simpleSegments(rest: string): Array<string | number> | undefined {
  const out: Array<string | number> = [];
  SIMPLE_SEGMENT.lastIndex = 0;
  while (SIMPLE_SEGMENT.lastIndex < rest.length) {
    const at = SIMPLE_SEGMENT.lastIndex;
    const m = SIMPLE_SEGMENT.exec(rest);
    if (!m || m.index !== at) return undefined;
    out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[4]));
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// `source: regex`: a plain pattern, or `/pattern/flags` (g and y are ignored: first match).

const regexCache = new Map<string, RegExp | string>();

/** Compile a pattern; a string result is the reason it is invalid. */
export function compileRegex(pattern: string): RegExp | string {
  let hit = regexCache.get(pattern);
  if (hit === undefined) {
    const slashed = /^\/([\s\S]*)\/([a-z]*)$/.exec(pattern);
    try {
      hit = slashed ? new RegExp(slashed[1], slashed[2].replace(/[gy]/g, '')) : new RegExp(pattern);
    } catch (err) {
      hit = `not a valid regular expression: ${(err as Error).message}`;
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, hit);
  }
  return hit;
}

// ---------------------------------------------------------------------------------------
// `source: xpath`. The library is loaded on first use: most projects and runs never need it.

/** A compiled XPath (`xpath.parse` exists at run time but not in the package's typings). */
export interface XPathExpression {
  evaluate(options: { node: Node; isHtml: boolean }): unknown;
}

const require = createRequire(import.meta.url);
let xpathLib: typeof XPath | undefined;
const parseXPath = (expr: string) => ((xpathLib ??= require('xpath') as typeof XPath) as unknown as { parse(expr: string): XPathExpression }).parse(expr);

const xpathCache = new Map<string, XPathExpression | string>();

/** Compile an XPath expression; a string result is the reason it is invalid. */
export function compileXPath(path: string): XPathExpression | string {
  let hit = xpathCache.get(path);
  if (hit === undefined) {
    try {
      hit = parseXPath(path);
    } catch (err) {
      hit = `not a valid XPath expression: ${(err as Error).message.split('\n')[0]}`;
    }
    if (xpathCache.size > 1000) xpathCache.clear();
    xpathCache.set(path, hit);
  }
  return hit;
}

// ---------------------------------------------------------------------------------------

const CHECKS: Record<ExtractSource, (path: string) => string | undefined> = {
  jsonpath: checkPath,
  regex: (path) => {
    const re = compileRegex(path);
    return typeof re === 'string' ? re : undefined;
  },
  xpath: (path) => {
    const e = compileXPath(path);
    return typeof e === 'string' ? e : undefined;
  },
};

/** Why an extraction can never work (bad path, regex or XPath), for lint; undefined when fine. */
export function checkExtract(spec: Pick<ExtractSpec, 'path' | 'source'>): string | undefined {
  const check = Object.hasOwn(CHECKS, spec.source) ? CHECKS[spec.source] : undefined;
  return check ? check(spec.path) : `unknown source "${String(spec.source)}"`;
}
