// Explicit `depends_on`, only where the input states an order (docs/format.md#explicit): an OpenAPI
// link that passes no value, a collection that changes a state before reading or undoing it on
// the same path, a capture or curl log where a container is created before what goes in it.
// Edges always point to an earlier observation, so they cannot form a cycle among themselves.
import { type Endpoint, endpointId } from './endpoints.js';
import { segmentText, shapeOf } from './paths.js';

export interface Edge {
  from: Endpoint;
  to: Endpoint;
  why: string;
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH']);

export function inferDependencies(endpoints: Endpoint[]): Edge[] {
  const live = endpoints.filter((e) => !e.blocked);
  const edges: Edge[] = [...linkEdges(live)];
  for (const b of live) {
    const first = b.ops[0];
    if (!first.concrete) continue;
    const before = live.filter((a) => a !== b && a.ops[0].concrete && a.ops[0].evidence.file === first.evidence.file && a.ops[0].order < first.order);
    const samePath = before
      .filter(
        (a) =>
          CHANGES.has(a.method) &&
          a.name.kind === 'action' &&
          endsStatic(a) &&
          (b.method === 'DELETE' || b.method === 'GET') &&
          shapeOf(a.segments) === shapeOf(b.segments),
      )
      .sort((x, y) => y.ops[0].order - x.ops[0].order)[0];
    if (samePath) {
      edges.push({
        from: b,
        to: samePath,
        why: `the input runs ${samePath.ops[0].key} (${where(samePath)}) before ${first.key} (${where(b)}) on the same path: a state change this request relies on`,
      });
      continue;
    }
    if (first.evidence.at.startsWith('item')) continue; // collections: only the same-path rule
    const container = before
      .filter((a) => (a.method === 'PUT' || a.method === 'POST') && endsStatic(a) && shapeOf(b.segments).startsWith(`${shapeOf(a.segments)}/`))
      .sort((x, y) => y.segments.length - x.segments.length || y.ops[0].order - x.ops[0].order)[0];
    if (container) {
      edges.push({
        from: b,
        to: container,
        why: `the input creates ${shapeOf(container.segments)} with ${container.ops[0].key} (${where(container)}) before ${first.key} (${where(b)}) under it`,
      });
    }
  }
  return edges;
}

function endsStatic(e: Endpoint): boolean {
  const last = e.segments[e.segments.length - 1];
  return last !== undefined && segmentText(last) !== undefined;
}

function where(e: Endpoint): string {
  return `${e.ops[0].evidence.file} ${e.ops[0].evidence.at}`;
}

function linkEdges(live: Endpoint[]): Edge[] {
  const byOpId = new Map<string, Endpoint>();
  for (const e of live) for (const o of e.ops) if (o.operationId) byOpId.set(o.operationId, e);
  const out: Edge[] = [];
  for (const a of live) {
    for (const o of a.ops) {
      for (const link of o.links) {
        const b = byOpId.get(link.operationId);
        if (!b || b === a || Object.keys(link.parameters).length) continue;
        out.push({ from: b, to: a, why: `OpenAPI link ${link.name} from ${endpointId(a)} to ${link.operationId} (${link.evidence.file} ${link.evidence.at})` });
      }
    }
  }
  return out;
}
