// The environment's baseUrl: the host most operations go to (docs/format.md#baseurl-host: it stops at the host;
// a server path prefix is already part of each operation path). Operations on other hosts
// cannot be written against one baseUrl: they are skipped, with an open question.
import { SET_VIA_VAR, type TemplateValue } from '../../project/index.js';
import type { InferContext } from './context.js';
import { endpointId, type Endpoint } from './endpoints.js';

export interface BaseChoice {
  value: TemplateValue;
  note: string;
}

/** A collection variable anywhere in the origin: `{{APIURL}}`, `https://{{env_url}}`. */
const VAR_ORIGIN = /\{\{\s*([^{}]+?)\s*\}\}/;

export function chooseBase(endpoints: Endpoint[], ctx: InferContext, exclude: Set<Endpoint>): BaseChoice {
  const counts = new Map<string, number>();
  for (const e of endpoints) {
    if (exclude.has(e)) continue;
    const o = e.ops[0].origin;
    if (o) counts.set(o, (counts.get(o) ?? 0) + 1);
  }
  const stated = ctx.api.servers[0];
  const origin: string | undefined = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  for (const e of endpoints) {
    const o = e.ops[0].origin;
    if (exclude.has(e) || !o || !origin || o === origin) continue;
    const q = ctx.ask(
      `Operations on ${o} go to another host than the baseUrl ${origin}; a project has one baseUrl per environment. Import them as a separate project, or tell which host is under test.`,
      [endpointId(e)],
      e.ops[0].evidence,
    );
    e.blocked = { reason: `host ${o} differs from the baseUrl`, question: q };
  }
  if (!origin) {
    return {
      value: SET_VIA_VAR,
      note: stated
        ? `the input states only a relative server URL (${stated.url}): supply the host with --var baseUrl=…`
        : 'the input states no server: supply the host with --var baseUrl=…',
    };
  }
  const v = VAR_ORIGIN.exec(origin);
  if (v) {
    // The scheme and host are a variable of the collection: which host is under test is the user's to say.
    const first = endpoints.find((e) => e.ops[0].origin === origin);
    ctx.ask(
      `The requests go to ${origin}: the host is the variable {{${v[1]}}}, which the input does not fix. Which host is under test? Supply it with --var baseUrl=https://… (scheme and host only).`,
      [],
      first?.ops[0].evidence,
    );
    return {
      value: SET_VIA_VAR,
      note: `the collection's {{${v[1]}}} (${origin}); supply it with --var baseUrl=… (host only: a path prefix belongs in the operation paths)`,
    };
  }
  const server = ctx.api.servers.find((s) => s.url.startsWith(origin));
  return { value: origin, note: server ? `from ${server.evidence.file} ${server.evidence.at}: "${server.url}"` : `the host the requests were sent to` };
}
