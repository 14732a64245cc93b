// Endpoints: observed operations grouped into the operations of the project. Several
// observations of one request (a HAR with the same GET twice, a collection that repeats a
// request in two folders) become one operation; different bodies or auth stay apart.
import type { HttpMethod } from '../../project/index.js';
import type { ObservedOperation } from '../observed.js';
import type { AnswerCreate } from './answer-creates.js';
import { nameEndpoint, type EndpointName } from './naming.js';
import { isPrefixWord, snake, unique } from './names.js';
import { parsePath, segmentText, shapeOf, type Segment } from './paths.js';
import { isIdLike, ValueIndex, type ValueSource } from './traffic.js';

export interface Endpoint {
  key: string;
  method: HttpMethod;
  segments: Segment[];
  /** observations, in input order; the first is the representative */
  ops: ObservedOperation[];
  /** traffic: placeholder segment index -> where its value came from */
  valueSources: Map<number, ValueSource>;
  name: EndpointName;
  resource: string;
  operation: string;
  /** why the endpoint is not emitted (docs/format.md#r6), with the open question number when there is one */
  blocked?: { reason: string; question?: number };
  actor?: string;
  /** a POST elsewhere that makes an instance of this resource, known by its answer (answer-creates.ts) */
  answerCreate?: AnswerCreate;
}

export function endpointId(e: Endpoint): string {
  return `${e.resource}.${e.operation}`;
}

/** Group, generalise traffic paths, and name every endpoint (unique operation names). */
export function buildEndpoints(ops: ObservedOperation[]): Endpoint[] {
  const index = new ValueIndex(ops.filter((o) => o.concrete));
  const templated = ops.map((op) => templateOf(op, index));
  adoptSiblingTemplates(templated);
  const groups = new Map<string, Endpoint>();
  for (const t of templated) {
    const key = groupKey(t.op, t.segments);
    const g = groups.get(key);
    if (g) {
      g.ops.push(t.op);
      for (const [i, s] of t.sources) if (!g.valueSources.has(i)) g.valueSources.set(i, s);
      continue;
    }
    groups.set(key, {
      key,
      method: t.op.method,
      segments: t.segments,
      ops: [t.op],
      valueSources: new Map(t.sources),
      name: undefined as unknown as EndpointName,
      resource: '',
      operation: '',
    });
  }
  const endpoints = [...groups.values()];
  nameAll(endpoints);
  return endpoints;
}

interface Templated {
  op: ObservedOperation;
  segments: Segment[];
  sources: Map<number, ValueSource>;
}

function templateOf(op: ObservedOperation, index: ValueIndex): Templated {
  const segments = parsePath(op.path);
  const sources = new Map<number, ValueSource>();
  if (op.concrete && !op.path.includes('{{')) {
    segments.forEach((seg, i) => {
      const text = segmentText(seg);
      if (text === undefined) return;
      const source = index.find(decodeSegment(text), op.order);
      if (!source) return;
      const last = [...source.field].reverse().find((f) => typeof f === 'string');
      segments[i] = [{ kind: 'var', name: String(last ?? 'id'), style: 'value', value: text }];
      sources.set(i, source);
    });
  }
  return { op, segments, sources };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * An id-like literal segment (`/books/NjpT…` seen before any response named it) takes the
 * placeholder of a sibling observation with the same shape otherwise (`/books/{id}` grounded).
 */
function adoptSiblingTemplates(all: Templated[]): void {
  const withVars = all.filter((t) => t.sources.size > 0);
  for (const t of all) {
    if (!t.op.concrete || t.sources.size) continue;
    for (const other of withVars) {
      if (other.segments.length !== t.segments.length) continue;
      let ok = true;
      let adopted = 0;
      for (let i = 0; i < t.segments.length && ok; i++) {
        const mine = segmentText(t.segments[i]);
        const theirs = segmentText(other.segments[i]);
        if (mine === theirs) continue;
        if (mine !== undefined && theirs === undefined && other.sources.has(i) && isIdLike(decodeSegment(mine))) adopted++;
        else ok = false;
      }
      if (!ok || !adopted) continue;
      t.segments = t.segments.map((s, i) => (segmentText(s) !== segmentText(other.segments[i]) ? other.segments[i] : s));
      break;
    }
  }
}

function groupKey(op: ObservedOperation, segments: Segment[]): string {
  const parts = [op.method, shapeOf(segments)];
  if (op.concrete) {
    const body = op.requestBody?.example;
    const keys =
      body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort().join(',') : op.requestBody ? `(${op.requestBody.kind})` : '';
    parts.push(
      `body:${keys}`,
      `query:${op.params
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort()
        .join(',')}`,
    );
    parts.push(`auth:${op.security?.map((s) => s.scheme).join('|') ?? '?'}`);
    if (op.summary && op.evidence.at.startsWith('item')) parts.push(`item:${op.summary}`);
  }
  return parts.join(' ');
}

/** Resource and operation names; collisions resolved with the parent word, then a number. */
function nameAll(endpoints: Endpoint[]): void {
  const followed = new Set<string>();
  for (const e of endpoints) {
    e.segments.forEach((seg, i) => {
      if (i > 0 && segmentText(seg) === undefined) followed.add(shapeOf(e.segments.slice(0, i)));
    });
  }
  const taken = new Map<string, Set<string>>();
  for (const e of endpoints) {
    // A literal id seen in traffic (`/pet/9223372036854017000`) names an item, not an action.
    const forNaming = e.segments.map((seg): Segment => {
      const t = segmentText(seg);
      return t !== undefined && e.ops[0].concrete && isIdLike(t) && /\d/.test(t) && !isPrefixWord(t)
        ? [{ kind: 'var', name: 'id', style: 'value', value: t }]
        : seg;
    });
    e.name = nameEndpoint(
      forNaming,
      e.method,
      (shape) => followed.has(shape),
      (upTo) => shapeOf(e.segments.slice(0, upTo + 1)),
    );
    e.resource = e.name.resource;
    const names = taken.get(e.resource) ?? new Set<string>();
    taken.set(e.resource, names);
    const first = e.ops[0];
    // A collection request names itself ("Create Article"); a description's path shape names the rest.
    let name = first.evidence.at.startsWith('item') && first.summary ? snake(first.summary) || e.name.operation : e.name.operation;
    if (names.has(name) && e.name.parent && e.name.parent !== e.resource) name = `${name}_of_${e.name.parent}`;
    e.operation = unique(name, names);
    names.add(e.operation);
  }
}
