// One operation of the project from one endpoint: path with its placeholders bound, the
// request parts the input states, expect_status, and `_provenance.evidence` for each choice.
import { SET_VIA_VAR, type TemplateValue } from '../../project/index.js';
import { evidenceText, type ObservedParam } from '../observed.js';
import type { Resolver } from './bindings.js';
import type { InferContext } from './context.js';
import type { DraftOperation } from './draft.js';
import type { Endpoint } from './endpoints.js';
import { uniqueIdentity } from './identity.js';
import { isCredentialName, snake } from './names.js';
import { renderPath } from './paths.js';
import { generated, generatorFor, templateBody, templateString, type ValueScope } from './values.js';

export interface OperationDeps {
  ctx: InferContext;
  resolver: Resolver;
  /** collection shape -> its item path's parameter (identity.ts), for a create's body */
  itemParams: ReadonlyMap<string, string>;
}

/** Headers that the runtime, the actor or the transport sets: never copied from traffic. */
const DROP_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'pragma',
  'origin',
  'referer',
  'cookie',
  'authorization',
  'dnt',
  'upgrade-insecure-requests',
  'if-none-match',
  'if-modified-since',
  'te',
  'keep-alive',
  'transfer-encoding',
  'proxy-authorization',
  'x-forwarded-for',
  'priority',
]);

export function buildOperation(e: Endpoint, deps: OperationDeps): DraftOperation {
  const op = e.ops[0];
  const evidence: Record<string, string> = {};
  const more = e.ops.length > 1 ? ` (and ${e.ops.length - 1} more observation${e.ops.length > 2 ? 's' : ''})` : '';
  evidence.operation = `${evidenceText(op.evidence)}${more}`;
  const scope: ValueScope = { ctx: deps.ctx, resolver: deps.resolver, endpoint: e, owner: e.resource, evidence };

  const path = renderPath(e.segments, (part, i) => {
    const b = deps.resolver.pathParam(e, part, i);
    evidence[`path.${part.name}`] = b.why;
    return b.ref;
  });
  const draft: DraftOperation = {
    resource: e.resource,
    name: e.operation,
    method: e.method,
    path,
    dependsOn: [],
    headers: {},
    queryParams: {},
    expectStatus: expectStatus(e),
    extract: {},
    evidence,
    source: op,
  };
  if (e.actor) {
    draft.actor = e.actor;
    evidence.actor = `requires ${op.security?.map((s) => s.scheme).join(' or ')} (${evidenceText(op.security![0].evidence)})`;
  }
  if (draft.expectStatus.length) evidence.expect_status = statusWhy(e);

  for (const p of op.params) {
    if (p.in !== 'query') continue;
    const v = paramValue(p, scope, `query.${p.name}`);
    if (v !== undefined) draft.queryParams[p.name] = v;
  }
  const authHeaders = new Set(deps.ctx.api.schemes.filter((s) => s.location === 'header' && s.paramName).map((s) => s.paramName!.toLowerCase()));
  for (const h of op.headers) {
    const lower = h.name.toLowerCase();
    if (DROP_HEADERS.has(lower) || lower.startsWith(':') || lower.startsWith('sec-') || authHeaders.has(lower)) continue;
    if (lower === 'content-type' && op.requestBody?.kind !== 'text') continue; // set by body / body_form
    const v = paramValue(h, scope, `headers.${h.name}`);
    if (v !== undefined) draft.headers[h.name] = v;
  }
  const body = templateBody(op.requestBody, scope);
  const emptyMap = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
  if (body !== undefined && !emptyMap) {
    const form = op.requestBody?.kind === 'form' || op.requestBody?.kind === 'multipart';
    if (form && typeof body === 'object' && body !== null && !Array.isArray(body)) draft.bodyForm = flattenForm(body as Record<string, TemplateValue>);
    else draft.body = body;
    evidence.body = `${evidenceText(op.requestBody!.evidence)}${op.requestBody!.example !== undefined ? '' : ' (required fields only)'}`;
    const unique = form ? undefined : uniqueIdentity(draft.body, e, deps.itemParams);
    if (unique) evidence[unique.key] = unique.why;
  }
  return draft;
}

/**
 * Form bodies are flat: a nested object is written in the deepObject style its form encoding
 * uses (`billing[address][line1]`), a list as `key[0]`, `key[1]`.
 */
function flattenForm(body: Record<string, TemplateValue>, prefix = '', out: Record<string, TemplateValue> = {}): Record<string, TemplateValue> {
  for (const [k, v] of Object.entries(body)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (Array.isArray(v))
      v.forEach((x, i) =>
        typeof x === 'object' && x !== null && !('__reqflow' in x)
          ? flattenForm(Array.isArray(x) ? Object.fromEntries(x.map((y, j) => [String(j), y])) : x, `${key}[${i}]`, out)
          : (out[`${key}[${i}]`] = x),
      );
    else if (typeof v === 'object' && v !== null && !('__reqflow' in v)) flattenForm(v, key, out);
    else out[key] = v;
  }
  return out;
}

/** A query parameter or header: as sent (traffic), as documented when required, else omitted. */
function paramValue(p: ObservedParam, scope: ValueScope, key: string): TemplateValue | undefined {
  if (isCredentialName(p.name)) {
    if (!p.required && !p.concrete) return undefined;
    return scope.ctx.secret(`${scope.owner}_${p.name}`, `${p.name} (${p.in}) of ${scope.endpoint.ops[0].key}`);
  }
  if (p.concrete) return typeof p.example === 'string' ? templateString(p.example, key, scope) : (p.example as TemplateValue);
  if (!p.required) return undefined;
  if (p.example !== undefined) return p.example as TemplateValue;
  if (generatorFor(p.format)) return generated(p.format!, key, p.evidence, scope);
  return scope.ctx.userVar(
    `${scope.owner}_${snake(p.name)}`,
    `required ${p.in} parameter ${p.name} of ${scope.endpoint.ops[0].key}; the input gives no value`,
    SET_VIA_VAR,
  );
}

/** The success statuses stated (documents) or seen (traffic); none stated -> omitted (docs/format.md#r1, docs/format.md#r3). */
function expectStatus(e: Endpoint): number[] {
  const codes = [...new Set(e.ops.flatMap((o) => o.responses.map((r) => r.status)).filter((c): c is number => c !== undefined))].sort((a, b) => a - b);
  const ok = codes.filter((c) => c >= 200 && c < 300);
  if (ok.length) return ok;
  return e.ops[0].concrete ? codes : [];
}

function statusWhy(e: Endpoint): string {
  const r = e.ops.flatMap((o) => o.responses).find((x) => x.status !== undefined);
  return r ? `${evidenceText(r.evidence)}${e.ops[0].concrete ? ' (observed)' : ''}` : '';
}
