// A request as it was sent (HAR entry, curl command) -> an observed operation. Shared by the
// traffic readers: URL userinfo and credential headers become security schemes, and every
// literal credential is recorded for the leak check, never kept as a value.
import type { HttpMethod } from '../../project/index.js';
import { isCredentialName } from '../infer/names.js';
import { quote, type Evidence, type ObservedApi, type ObservedBody, type ObservedOperation, type ObservedParam, type ObservedResponse } from '../observed.js';
import { valueFields } from './openapi-schema.js';
import { schemesOfHeaders, type AuthContext } from './postman-auth.js';
import { parseConcreteUrl } from './url.js';
import { parseJson } from '../json.js';

export interface SentRequest {
  method: HttpMethod;
  url: string;
  headers: Array<[string, string]>;
  body?: { text: string; mimeType?: string; params?: Array<[string, string]> };
  /** `-u user:password` */
  user?: string;
  response?: { status?: number; text?: string; evidence?: Evidence };
  order: number;
  evidence: Evidence;
}

export function authContext(api: ObservedApi): AuthContext {
  return { setters: new Map(), schemes: new Map(), credentials: api.credentials };
}

/** Each origin the requests were sent to is a server of the API, in order of first use. */
export function addOriginServers(api: ObservedApi, file: string, at: string): void {
  for (const o of new Set(api.operations.map((op) => op.origin).filter(Boolean))) api.servers.push({ url: o!, evidence: { file, at, quote: o! } });
}

/** `<name>` and `:name` placeholders a document writes into a URL are path parameters. */
function normalizePlaceholders(path: string): string {
  return path
    .split('/')
    .map((s) => s.replace(/^<([A-Za-z_][\w-]*)>$/, '{$1}').replace(/^:([A-Za-z_]\w*)$/, '{$1}'))
    .join('/');
}

export function sentOperation(req: SentRequest, ctx: AuthContext): ObservedOperation {
  const url = parseConcreteUrl(req.url);
  const uses: string[] = [];
  const password = url.password ?? (req.user?.includes(':') ? req.user.slice(req.user.indexOf(':') + 1) : undefined);
  if (url.username !== undefined || req.user !== undefined) {
    if (password) ctx.credentials.add(password);
    if (!ctx.schemes.has('basic'))
      ctx.schemes.set('basic', { id: 'basic', kind: 'basic', evidence: { ...req.evidence, quote: 'user:password in the request' } });
    uses.push('basic');
  }
  const headerMap: Record<string, string> = {};
  for (const [k, v] of req.headers) headerMap[k] = v;
  for (const [k, v] of Object.entries(headerMap))
    if (/^cookie$/i.test(k))
      for (const c of v.split(';')) {
        const val = c.split('=').slice(1).join('=');
        if (val.length >= 4) ctx.credentials.add(val.trim());
      }
  uses.push(...schemesOfHeaders(headerMap, ctx, (h) => ({ ...req.evidence, quote: quote(`${h}: …`) })));
  const params: ObservedParam[] = url.query.map(([name, value]) => {
    if (isCredentialName(name) && value) ctx.credentials.add(value);
    return { name, in: 'query', required: true, example: value, concrete: true, evidence: req.evidence };
  });
  const headers: ObservedParam[] = req.headers.map(([name, value]) => ({
    name,
    in: 'header',
    required: true,
    example: value,
    concrete: true,
    evidence: req.evidence,
  }));
  const path = normalizePlaceholders(url.path);
  const op: ObservedOperation = {
    key: `#${req.order + 1} ${req.method} ${path}`,
    method: req.method,
    path,
    origin: url.origin,
    params,
    headers,
    requestBody: bodyOf(req, ctx),
    responses: [],
    security: [...new Set(uses)].map((scheme) => ({ scheme, evidence: req.evidence })),
    order: req.order,
    concrete: true,
    sets: [],
    links: [],
    evidence: req.evidence,
  };
  if (req.response) op.responses.push(responseOf(req.response, req.evidence));
  return op;
}

function bodyOf(req: SentRequest, ctx: AuthContext): ObservedBody | undefined {
  const b = req.body;
  if (!b) return undefined;
  const type = (b.mimeType ?? req.headers.find(([k]) => /^content-type$/i.test(k))?.[1] ?? '').toLowerCase();
  if (b.params?.length || /x-www-form-urlencoded|multipart/.test(type)) {
    const pairs = b.params?.length ? b.params : type.includes('urlencoded') ? new URLSearchParams(b.text).entries() : [];
    const example = Object.fromEntries([...pairs]);
    noteCredentials(example, ctx);
    if (Object.keys(example).length)
      return {
        kind: type.includes('multipart') ? 'multipart' : 'form',
        fields: valueFields(example, req.evidence),
        example,
        concrete: true,
        evidence: req.evidence,
      };
  }
  const json = parseJson(b.text);
  if (json !== undefined && typeof json === 'object' && json !== null) {
    noteCredentials(json, ctx);
    return { kind: 'json', fields: valueFields(json, req.evidence), example: json, concrete: true, evidence: req.evidence };
  }
  if (!b.text.trim() || b.text.startsWith('@')) return undefined; // empty, or a file upload (`-d @file`)
  return { kind: 'text', fields: [], example: b.text, concrete: true, evidence: req.evidence };
}

function noteCredentials(v: unknown, ctx: AuthContext, depth = 0): void {
  if (depth > 12 || typeof v !== 'object' || v === null) return;
  for (const [k, x] of Object.entries(v)) {
    if ((typeof x === 'string' || typeof x === 'number') && isCredentialName(k) && String(x).length >= 4) ctx.credentials.add(String(x));
    else noteCredentials(x, ctx, depth + 1);
  }
  // A URL with user:password@ inside a value (a replication target) carries a credential too.
  for (const x of Object.values(v)) {
    if (typeof x !== 'string') continue;
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^:@/\s]+:([^@/\s]+)@/i.exec(x);
    if (m) ctx.credentials.add(m[1]);
  }
}

function responseOf(r: NonNullable<SentRequest['response']>, evidence: Evidence): ObservedResponse {
  const ev = r.evidence ?? evidence;
  const example = r.text !== undefined ? parseJson(r.text) : undefined;
  // The quote names the status only: a response body may carry a token (never copied).
  const out: ObservedResponse = {
    status: r.status,
    fields: valueFields(example, ev),
    evidence: { ...ev, quote: r.status !== undefined ? `status ${r.status}` : 'response body' },
  };
  if (example !== undefined) {
    out.example = example;
    out.rawText = r.text;
  }
  return out;
}
