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
  const earlier = earlierEndpoints(live);
  for (const b of live) {
    const found = earlier.get(b);
    if (!found) continue;
    const first = b.ops[0];
    const { samePath, container } = found;
    if (samePath) {
      edges.push({
        from: b,
        to: samePath,
        why: `the input runs ${samePath.ops[0].key} (${where(samePath)}) before ${first.key} (${where(b)}) on the same path: a state change this request relies on`,
      });
    } else if (container) {
      edges.push({
        from: b,
        to: container,
        why: `the input creates ${shapeOf(container.segments)} with ${container.ops[0].key} (${where(container)}) before ${first.key} (${where(b)}) under it`,
      });
    }
  }
  return edges;
}

/**
 * For each concrete endpoint, the latest earlier one of the same input file that changes a
 * state on its very path (`samePath`), else, outside collections, the deepest and latest one
 * that creates a container its path lies under. One pass in input order, with the candidates
 * kept by path shape: comparing every endpoint with every earlier one made a 20k-request
 * collection spend minutes here.
 */
function earlierEndpoints(live: Endpoint[]): Map<Endpoint, { samePath?: Endpoint; container?: Endpoint }> {
  const out = new Map<Endpoint, { samePath?: Endpoint; container?: Endpoint }>();
  const concrete = live.filter((e) => e.ops[0].concrete).sort((x, y) => x.ops[0].order - y.ops[0].order);
  /** `file \0 shape` -> the latest endpoint so far that changes a state there / creates a container there */
  const changes = new Map<string, Endpoint>();
  const creates = new Map<string, Endpoint>();
  const key = (e: Endpoint, shape: string): string => `${e.ops[0].evidence.file}\0${shape}`;
  // endpoints whose first request has the same order are not "before" one another: each group
  // is looked up before any of it is recorded
  for (let i = 0; i < concrete.length;) {
    let j = i;
    while (j < concrete.length && concrete[j].ops[0].order === concrete[i].ops[0].order) j++;
    const group = concrete.slice(i, j);
    for (const b of group) {
      const shape = shapeOf(b.segments);
      const samePath = b.method === 'DELETE' || b.method === 'GET' ? changes.get(key(b, shape)) : undefined;
      if (samePath) out.set(b, { samePath });
      else if (!b.ops[0].evidence.at.startsWith('item')) {
        // collections: only the same-path rule
        for (let k = b.segments.length - 1; k > 0; k--) {
          const container = creates.get(key(b, shapeOf(b.segments.slice(0, k))));
          if (container) {
            out.set(b, { container });
            break;
          }
        }
      }
    }
    for (const a of group) {
      if (!endsStatic(a)) continue;
      const shape = shapeOf(a.segments);
      if (CHANGES.has(a.method) && a.name.kind === 'action') changes.set(key(a, shape), a);
      if (a.method === 'PUT' || a.method === 'POST') creates.set(key(a, shape), a);
    }
    i = j;
  }
  return out;
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
