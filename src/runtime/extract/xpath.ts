// `source: xpath`: the body read as XML (or HTML, by Content-Type or by its look), values as
// strings: an element gives its text, an attribute its value. XPath functions work too:
// `count(//item)` gives a number, `boolean(//x)` a boolean.
import type * as Xmldom from '@xmldom/xmldom';
import { compileXPath as compile } from '../../graph/index.js';
import { lazy } from '../../project/index.js';
import { header, type FlowResponse } from '../../http/index.js';
import { extractFailed } from './fail.js';
import type { ExtractSourceModule } from './types.js';

type Parsed = { doc: Node; html: boolean } | { error: string };
const xmldom = lazy<typeof Xmldom>('@xmldom/xmldom');

/** a response is parsed once, however many xpath extractions read it */
const docs = new WeakMap<FlowResponse, Parsed>();

function parse(res: FlowResponse): Parsed {
  let hit = docs.get(res);
  if (!hit) docs.set(res, (hit = parseBody(res)));
  return hit;
}

function parseBody(res: FlowResponse): Parsed {
  const text = res.text();
  const type = header(res.headers, 'content-type') ?? '';
  const looksHtml = /html/i.test(type) || /^\s*(<!doctype html|<html)/i.test(text);
  if (looksHtml) {
    return { doc: new (xmldom().DOMParser)({ onError: () => {} }).parseFromString(text, 'text/html') as unknown as Node, html: true };
  }
  try {
    // fatal errors still throw; warnings stay quiet (xmldom would print them)
    return { doc: new (xmldom().DOMParser)({ onError: () => {} }).parseFromString(text, 'text/xml') as unknown as Node, html: false };
  } catch (err) {
    return { error: `the response body is not well-formed XML (${(err as Error).message.split('\n')[0].slice(0, 120)})` };
  }
}

export const xpath: ExtractSourceModule = {
  source: 'xpath',
  read(spec, res) {
    const expr = compile(spec.path);
    if (typeof expr === 'string') throw extractFailed(spec, expr);
    const parsed = parse(res);
    if ('error' in parsed) throw extractFailed(spec, parsed.error, { status: res.status });
    const result = expr.evaluate({ node: parsed.doc, isHtml: parsed.html }) as XValue;
    const values = toValues(result);
    if (!values.length) throw extractFailed(spec, `nothing found (status ${res.status})`, { status: res.status });
    return { values, many: false };
  },
};

/** The result kinds of the xpath library: node sets, strings, numbers, booleans. */
interface XValue {
  toArray?: () => Node[];
  stringValue(): string;
  numberValue(): number;
  booleanValue(): boolean;
  constructor: { name: string };
}

function toValues(r: XValue): unknown[] {
  if (typeof r.toArray === 'function') return r.toArray().map(nodeText);
  if ('b' in r) return [r.booleanValue()];
  if ('num' in r) {
    const n = r.numberValue();
    return Number.isNaN(n) ? [] : [n];
  }
  const s = r.stringValue();
  return s === '' ? [] : [s];
}

function nodeText(n: Node): string {
  return n.nodeType === 1 || n.nodeType === 9 ? (n.textContent ?? '') : (n.nodeValue ?? '');
}
