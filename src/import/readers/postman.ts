// Postman reader: collections v2.0 and v2.1 (folders, auth at every level, variables, test
// scripts) and Postman environment files (variables only). A collection runs in order, so
// its requests are traffic-like: observed in that order, with the values they send.
import { HTTP_METHODS, type HttpMethod, scalarText } from '../../project/index.js';
import { IMPORT_CODES, importError } from '../errors.js';
import { isCredentialName } from '../infer/names.js';
import { emptyApi, obj, quote, type Obj, type ObservedApi, type ObservedBody, type ObservedOperation, type ObservedParam } from '../observed.js';
import { valueFields } from './openapi-schema.js';
import { evidenceOf, kv, schemesOfAuth, schemesOfHeaders, VAR_ONLY, type AuthContext, type TokenSetter } from './postman-auth.js';
import { analyzeScript } from './postman-script.js';
import type { ReaderInput } from './types.js';
import { addOriginServers, authContext } from './sent.js';
import { parseJson } from '../json.js';
import { parseConcreteUrl } from './url.js';

interface Item {
  item: Obj;
  folder: string[];
  auth?: Obj;
  order: number;
}

export function readPostman(input: ReaderInput): ObservedApi {
  const outer = obj(input.json);
  // The Postman API wraps an export in an envelope: `{"collection": {...}}` / `{"environment": {...}}`.
  const doc = obj(outer.collection ?? outer.environment ?? outer);
  if (Array.isArray(doc.values)) return readEnvironment(input, doc);
  if (!Array.isArray(doc.item)) throw importError(IMPORT_CODES.parse, `${input.file}: not a Postman collection (no "item" list)`, input.file);
  const api = emptyApi();
  const info = obj(doc.info);
  const schema = scalarText(info.schema);
  const version = /v2\.1/.test(schema) ? 'Postman 2.1' : /v2\.0/.test(schema) ? 'Postman 2.0' : 'Postman collection';
  // v2.1 lists `{key, value, type}`; a v2.0 export may give a plain map
  const vars = Array.isArray(doc.variable) ? doc.variable.map(obj) : Object.entries(obj(doc.variable)).map(([key, value]): Obj => ({ key, value }));
  for (const v of vars) if (typeof v.key === 'string') addVariable(api, input.file, v.key, scalarText(v.value), 'collection variable', v.type === 'secret');

  const items: Item[] = [];
  const walk = (list: unknown[], folder: string[], auth: Obj | undefined): void => {
    for (const raw of list) {
      const it = obj(raw);
      const own = ownAuth(it.auth) ?? auth;
      if (Array.isArray(it.item)) walk(it.item, [...folder, scalarText(it.name)], own);
      else if (it.request !== undefined) items.push({ item: it, folder, auth: ownAuth(obj(it.request).auth) ?? own, order: items.length });
    }
  };
  walk(doc.item, [], ownAuth(doc.auth));

  const ctx = authContext(api);
  const scripts = items.map((it) => scriptOf(it, input.file));
  // Setters first: a request may use a token that a later request of the collection stores.
  items.forEach((it, i) => {
    for (const s of scripts[i].facts.sets) {
      if (!s.field || ctx.setters.has(s.variable)) continue;
      const req = obj(it.item.request);
      const body = obj(req.body);
      const form = { ...kv(body.urlencoded), ...kv(body.formdata) };
      const headers = kv(req.header);
      const grant = form.grant_type ?? headers.grant_type;
      const credentialVars: Record<string, string> = {};
      for (const [k, v] of Object.entries(form)) {
        const m = VAR_ONLY.exec(v.trim());
        const key = /^user_?name$/i.test(k) ? 'username' : k;
        if (m && ['client_id', 'client_secret', 'username', 'password'].includes(key)) credentialVars[key] = m[1];
      }
      const setter: TokenSetter = {
        opKey: keyOf(it, req),
        field: s.field,
        grantType: grant,
        url: urlText(req.url),
        credentialVars,
        scope: form.scope,
        evidence: { ...scripts[i].evidence, quote: quote(s.text) },
      };
      ctx.setters.set(s.variable, setter);
    }
  });
  items.forEach((it, i) => api.operations.push(operationOf(it, input.file, ctx, scripts[i])));
  api.schemes.push(...ctx.schemes.values());
  for (const s of scripts)
    if (s.facts.error) api.notes.push({ text: `A test script could not be parsed (${s.facts.error}); variables it sets are not used`, evidence: s.evidence });
  // Pre-request scripts are read, never run: what they set is named, and supplied on each run.
  for (const it of items) {
    const pre = scriptOf(it, input.file, 'prerequest');
    const names = [...new Set(pre.facts.sets.map((x) => x.variable))];
    if (names.length)
      api.notes.push({
        text: `The pre-request script of "${itemName(it)}" sets ${names.map((n) => `{{${n}}}`).join(', ')} before the request; scripts are read as evidence, not run, so each is a variable supplied on each run`,
        evidence: pre.evidence,
      });
  }
  addOriginServers(api, input.file, 'item');
  api.inputs.push({
    file: input.file,
    format: 'postman',
    version,
    title: typeof info.name === 'string' ? info.name : undefined,
    operationCount: api.operations.length,
  });
  return api;
}

/** An item's own `auth`; undefined when it has none or says `inherit` (its parent's applies). */
function ownAuth(auth: unknown): Obj | undefined {
  const a = obj(auth);
  return typeof a.type === 'string' && a.type !== 'inherit' ? a : undefined;
}

function readEnvironment(input: ReaderInput, doc: Obj): ObservedApi {
  const api = emptyApi();
  for (const v of doc.values as unknown[]) {
    const e = obj(v);
    if (typeof e.key !== 'string' || e.enabled === false) continue;
    addVariable(api, input.file, e.key, scalarText(e.value), 'environment variable', e.type === 'secret');
  }
  api.inputs.push({
    file: input.file,
    format: 'postman',
    version: 'Postman environment',
    title: typeof doc.name === 'string' ? doc.name : undefined,
    operationCount: 0,
  });
  return api;
}

function addVariable(api: ObservedApi, file: string, name: string, value: string, what: string, markedSecret = false): void {
  // Postman marks a variable `type: "secret"`; else its name says whether it holds a credential.
  const credential = markedSecret || isCredentialName(name);
  if (credential && value && !value.includes('{{')) api.credentials.add(value);
  api.variables.push({
    name,
    value: credential ? undefined : value || undefined,
    credential,
    evidence: { file, at: `${what} "${name}"`, quote: quote(`${name}${credential ? '' : `=${value}`}`) },
  });
}

function itemName(it: Item): string {
  return [...it.folder, scalarText(it.item.name)].filter(Boolean).join(' / ');
}

function urlText(url: unknown): string {
  if (typeof url === 'string') return url;
  const u = obj(url);
  if (typeof u.raw === 'string') return u.raw;
  const host = Array.isArray(u.host) ? u.host.join('.') : scalarText(u.host);
  const path = Array.isArray(u.path) ? u.path.join('/') : scalarText(u.path);
  return `${u.protocol ? `${scalarText(u.protocol)}://` : ''}${host}/${path}`;
}

function keyOf(it: Item, req: Obj): string {
  return `#${it.order + 1} ${scalarText(req.method, 'GET').toUpperCase()} ${scalarText(it.item.name)}`;
}

function scriptOf(
  it: Item,
  file: string,
  listen: 'test' | 'prerequest' = 'test',
): { facts: ReturnType<typeof analyzeScript>; evidence: ReturnType<typeof evidenceOf> } {
  const events = Array.isArray(it.item.event) ? it.item.event.map(obj) : [];
  const script = events.find((e) => e.listen === listen);
  const exec = obj(script?.script).exec;
  const code = Array.isArray(exec) ? exec.join('\n') : typeof exec === 'string' ? exec : '';
  const what = listen === 'test' ? 'test script' : 'pre-request script';
  return { facts: analyzeScript(code), evidence: { file, at: `item "${itemName(it)}" ${what}`, quote: what } };
}

function operationOf(it: Item, file: string, ctx: AuthContext, script: ReturnType<typeof scriptOf>): ObservedOperation {
  const req = typeof it.item.request === 'string' ? { url: it.item.request, method: 'GET' } : obj(it.item.request);
  const m = scalarText(req.method, 'GET').toUpperCase();
  const method = (HTTP_METHODS as readonly string[]).includes(m) ? (m as HttpMethod) : 'GET';
  const raw = urlText(req.url);
  const url = parseConcreteUrl(raw);
  const name = itemName(it);
  const evidence = evidenceOf(file, name, `${method} ${raw}`);
  // Postman path variables (`/users/:id`) are documented parameters.
  const path = url.path
    .split('/')
    .map((s) => (/^:[A-Za-z_]\w*$/.test(s) ? `{${s.slice(1)}}` : s))
    .join('/');
  const params: ObservedParam[] = [];
  const pathVars = kv(obj(req.url).variable);
  for (const [k, v] of Object.entries(pathVars)) params.push({ name: k, in: 'path', required: true, example: v, concrete: true, evidence });
  const query = Array.isArray(obj(req.url).query)
    ? (obj(req.url).query as unknown[])
        .map(obj)
        .filter((q) => q.disabled !== true)
        .map((q) => [String(q.key), scalarText(q.value)] as [string, string])
    : url.query;
  for (const [k, v] of query) {
    if (isCredentialName(k) && v && !v.includes('{{')) ctx.credentials.add(v);
    params.push({ name: k, in: 'query', required: true, example: v, concrete: true, evidence });
  }
  const headerList = Array.isArray(req.header) ? req.header.map(obj).filter((h) => h.disabled !== true) : [];
  const headerMap = Object.fromEntries(headerList.map((h) => [String(h.key), scalarText(h.value)]));
  const headers: ObservedParam[] = Object.entries(headerMap).map(([k, v]) => ({ name: k, in: 'header', required: true, example: v, concrete: true, evidence }));
  const fromAuth = schemesOfAuth(it.auth, ctx, evidence);
  const fromHeaders = schemesOfHeaders(headerMap, ctx, (h) => evidenceOf(file, name, `${h}: ${headerMap[h].includes('{{') ? headerMap[h] : '…'}`));
  const uses = fromHeaders.length ? fromHeaders : fromAuth;
  const op: ObservedOperation = {
    key: keyOf(it, req),
    method,
    path,
    origin: url.origin,
    summary: scalarText(it.item.name),
    params,
    headers,
    requestBody: bodyOf(obj(req.body), evidence, ctx),
    responses: [],
    security: uses?.map((scheme) => ({ scheme, evidence })),
    order: it.order,
    concrete: true,
    sets: script.facts.sets.map((s) => ({ variable: s.variable, field: s.field, evidence: { ...script.evidence, quote: quote(s.text) } })),
    links: [],
    group: it.folder.join(' / ') || undefined,
    evidence,
  };
  for (const status of script.facts.statuses) op.responses.push({ status, fields: [], evidence: { ...script.evidence, quote: `status ${status}` } });
  const saved = Array.isArray(it.item.response) ? it.item.response.map(obj) : [];
  for (const r of saved) {
    const text = typeof r.body === 'string' ? r.body : '';
    const example = parseJson(text);
    const rEv = { ...evidence, quote: quote(`saved response ${scalarText(r.name)} ${scalarText(r.code)}`) };
    op.responses.push({ status: typeof r.code === 'number' ? r.code : undefined, fields: valueFields(example, rEv), example, rawText: text, evidence: rEv });
  }
  // Fields the script reads from the response are stated by the input as well.
  for (const s of op.sets)
    if (s.field?.length)
      op.responses.push({
        fields: [{ path: s.field.filter((f): f is string => typeof f === 'string'), required: false, evidence: s.evidence }],
        evidence: s.evidence,
      });
  return op;
}

function bodyOf(body: Obj, evidence: ObservedOperation['evidence'], ctx: AuthContext): ObservedBody | undefined {
  const mode = scalarText(body.mode);
  if (mode === 'raw') {
    const raw = typeof body.raw === 'string' ? body.raw : '';
    if (!raw.trim()) return undefined;
    const json = parseJson(raw);
    if (json !== undefined && typeof json === 'object') {
      noteBodyCredentials(json, ctx);
      return { kind: 'json', fields: valueFields(json, evidence), example: json, concrete: true, evidence };
    }
    return { kind: 'text', fields: [], example: raw, concrete: true, evidence };
  }
  if (mode === 'urlencoded' || mode === 'formdata') {
    const list = (Array.isArray(body[mode]) ? (body[mode] as unknown[]).map(obj) : []).filter((f) => f.disabled !== true && f.type !== 'file');
    const example = Object.fromEntries(list.map((f) => [String(f.key), scalarText(f.value)]));
    noteBodyCredentials(example, ctx);
    return { kind: mode === 'urlencoded' ? 'form' : 'multipart', fields: valueFields(example, evidence), example, concrete: true, evidence };
  }
  return undefined;
}

function noteBodyCredentials(v: unknown, ctx: AuthContext, depth = 0): void {
  if (depth > 12 || typeof v !== 'object' || v === null) return;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string' && isCredentialName(k) && x && !x.includes('{{')) ctx.credentials.add(x);
    else noteBodyCredentials(x, ctx, depth + 1);
  }
}
