// OpenAPI reader: Swagger 2.0, OAS 3.0 and 3.1, JSON or YAML. `$ref`s are resolved by
// ./openapi-refs.ts: only Reference Objects, never a remote one, and a reference that cannot be
// resolved blocks only the operations that need it.
import path from 'node:path';
import { HTTP_METHODS, type HttpMethod, scalarText } from '../../project/index.js';
import { IMPORT_CODES, importError } from '../errors.js';
import {
  emptyApi,
  pointer,
  obj,
  quote,
  type Evidence,
  type ObservedApi,
  type ObservedBody,
  type ObservedLink,
  type ObservedOperation,
  type ObservedParam,
  type ObservedResponse,
  type ReaderNote,
  type Obj,
  type SecurityScheme,
  type SecurityUse,
} from '../observed.js';
import { parseDescription, resolveRefs, type RefProblem } from './openapi-refs.js';
import { formatOf, isSchema, schemaFields, schemaValue } from './openapi-schema.js';
import { splitServerUrl } from './url.js';
import type { ReaderInput } from './types.js';

/** Read one OpenAPI description (YAML or JSON; parsed already when readInput detected it). */
export async function readOpenApi(input: ReaderInput): Promise<ObservedApi> {
  let raw: unknown = input.json;
  if (raw === undefined) {
    try {
      raw = parseDescription(input.text);
    } catch (err) {
      throw importError(IMPORT_CODES.parse, `${input.file}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`, input.file, err);
    }
  }
  const isSwagger2 = typeof obj(raw).swagger === 'string';
  const resolved = await resolveRefs(input.path, raw, isSwagger2);
  const api = resolved.root;
  const needs = new Map<RefProblem, string[]>();
  const version = isSwagger2 ? `Swagger ${api.swagger}` : `OpenAPI ${scalarText(api.openapi)}`;
  const out = emptyApi();
  const ev = (segments: Array<string | number>, text: string): Evidence => ({ file: input.file, at: pointer(segments), quote: quote(text) });

  const server = isSwagger2 ? swaggerServer(api) : oasServer(api);
  if (server) out.servers.push({ url: server.url, evidence: ev(server.at, server.url) });
  const split = server ? splitServerUrl(server.url) : undefined;

  out.schemes.push(...readSchemes(api, isSwagger2, ev));
  const globalSecurity = Array.isArray(api.security) ? api.security : undefined;

  let order = 0;
  for (const [path, itemRaw] of Object.entries(obj(api.paths))) {
    const item = obj(itemRaw);
    for (const m of Object.keys(item)) {
      const method = m.toUpperCase() as HttpMethod;
      if (!HTTP_METHODS.includes(method)) continue;
      const op = obj(item[m]);
      const base = ['paths', path, m];
      const fullPath = joinPath(split?.prefix ?? '', path);
      const opEv = ev(base, `${method} ${path}${typeof op.summary === 'string' ? ` (${op.summary})` : ''}`);
      const params = mergeParams(item.parameters, op.parameters, ['paths', path], m);
      const observed: ObservedOperation = {
        key: `${method} ${fullPath}`,
        method,
        path: fullPath,
        origin: split?.origin,
        serverPrefix: split?.prefix || undefined,
        operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
        summary: typeof op.summary === 'string' ? op.summary : undefined,
        params: [],
        headers: [],
        responses: [],
        security: readSecurity(op.security ?? globalSecurity, ev(op.security ? [...base, 'security'] : ['security'], 'security')),
        order: order++,
        concrete: false,
        sets: [],
        links: [],
        group: Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : undefined,
        evidence: opEv,
      };
      for (const { p, at } of params) {
        const loc = String(p.in);
        const pEv = ev(at, `${loc} parameter ${String(p.name)}`);
        if (loc === 'body') observed.requestBody = bodyFromSchema('json', p.schema, undefined, pEv);
        else if (loc === 'formData') addFormField(observed, p, pEv, op);
        else if (loc === 'path' || loc === 'query' || loc === 'header' || loc === 'cookie') {
          const param: ObservedParam = { name: String(p.name), in: loc, required: p.required === true || loc === 'path', evidence: pEv };
          const value = p.example ?? schemaValue(p.schema ?? p);
          if (value !== undefined) param.example = value;
          const format = formatOf(p.schema ?? p);
          if (format) param.format = format;
          (loc === 'header' ? observed.headers : observed.params).push(param);
        }
      }
      if (!isSwagger2 && op.requestBody)
        observed.requestBody = oasBody(obj(op.requestBody), (s) => ev([...base, 'requestBody', ...s], `requestBody ${s.join(' ')}`));
      readResponses(
        observed,
        obj(op.responses),
        isSwagger2,
        (s, t) => ev([...base, 'responses', ...s], t),
        (v) => resolved.nameOf(v),
      );
      out.operations.push(observed);
      // What the request needs (parameters, body) blocks the operation; a response it cannot
      // read only costs the fields a test could extract from it.
      for (const p of resolved.problemsIn([item.parameters, op.parameters, op.requestBody])) needs.set(p, [...(needs.get(p) ?? []), observed.key]);
    }
  }
  for (const p of resolved.problems) out.notes.push(refNote(p, needs.get(p) ?? [], input));
  const title = typeof obj(api.info).title === 'string' ? String(obj(api.info).title) : undefined;
  out.inputs.push({ file: input.file, format: 'openapi', version, title, operationCount: out.operations.length });
  const hooks = Object.keys(obj(api.webhooks));
  if (!out.operations.length || hooks.length) {
    // Webhooks (3.1) are requests the API sends: no operation a client calls, so none is imported.
    out.notes.push({
      text: hooks.length
        ? `${input.file} has ${out.operations.length ? '' : 'no paths, only '}webhooks (${hooks.join(', ')}): webhooks are requests the API sends, not operations a client calls, so ${out.operations.length ? 'they are not imported' : 'nothing is imported from it'}`
        : `${input.file} has no paths: nothing to import`,
      evidence: ev(hooks.length ? ['webhooks'] : ['paths'], hooks.length ? `webhooks: ${hooks.join(', ')}` : 'paths'),
    });
  }
  return out;
}

function refNote(p: RefProblem, blocks: string[], input: ReaderInput): ReaderNote {
  // Evidence names the input as the user gave it; a reference in another file, relative to it.
  const file =
    p.file === input.path
      ? input.file
      : path
          .join(path.dirname(input.file), path.relative(path.dirname(input.path), p.file))
          .split(path.sep)
          .join('/');
  const what = blocks.length ? 'the operations that need it are skipped' : 'nothing imported needs it for its request';
  return {
    text: `The $ref "${p.ref}" is ${p.reason}: what it describes is unknown, so ${what}. Give the referenced definition in a local file, or tell what it holds`,
    evidence: { file, at: pointer(p.at), quote: quote(`$ref: ${p.ref}`) },
    blocks,
    question: true,
  };
}

function oasServer(api: Obj): { url: string; at: Array<string | number> } | undefined {
  const servers = Array.isArray(api.servers) ? api.servers : [];
  const first = obj(servers[0]);
  if (typeof first.url !== 'string') return undefined;
  // Server variables: their defaults are stated by the input.
  let url = first.url;
  for (const [name, v] of Object.entries(obj(first.variables))) {
    const d = obj(v).default;
    if (typeof d === 'string') url = url.split(`{${name}}`).join(d);
  }
  return { url, at: ['servers', 0, 'url'] };
}

function swaggerServer(api: Obj): { url: string; at: Array<string | number> } | undefined {
  const base = typeof api.basePath === 'string' ? api.basePath : '';
  if (typeof api.host !== 'string') return base ? { url: base, at: ['basePath'] } : undefined;
  const scheme = Array.isArray(api.schemes) && typeof api.schemes[0] === 'string' ? api.schemes[0] : 'https';
  return { url: `${scheme}://${api.host}${base}`, at: ['host'] };
}

function joinPath(prefix: string, path: string): string {
  const p = prefix.replace(/\/+$/, '');
  return `${p}${path.startsWith('/') ? path : `/${path}`}`;
}

function mergeParams(pathLevel: unknown, opLevel: unknown, item: string[], method: string): Array<{ p: Obj; at: Array<string | number> }> {
  const out = new Map<string, { p: Obj; at: Array<string | number> }>();
  const add = (list: unknown, at: (i: number) => Array<string | number>): void => {
    if (!Array.isArray(list)) return;
    list.forEach((p, i) => {
      const o = obj(p);
      if (typeof o.name === 'string') out.set(`${String(o.in)}:${o.name}`, { p: o, at: at(i) });
    });
  };
  add(pathLevel, (i) => [...item, 'parameters', i]);
  add(opLevel, (i) => [...item, method, 'parameters', i]);
  return [...out.values()];
}

function addFormField(op: ObservedOperation, p: Obj, evidence: Evidence, raw: Obj): void {
  const consumes = Array.isArray(raw.consumes) ? raw.consumes.map(String) : [];
  const kind = consumes.some((c) => c.includes('multipart')) ? 'multipart' : 'form';
  op.requestBody ??= { kind, fields: [], evidence };
  op.requestBody.fields.push({ path: [String(p.name)], required: p.required === true, example: schemaValue(p), evidence });
}

const BODY_KINDS: Array<[RegExp, ObservedBody['kind']]> = [
  [/json/i, 'json'],
  [/x-www-form-urlencoded/i, 'form'],
  [/multipart/i, 'multipart'],
];

function oasBody(body: Obj, ev: (s: string[]) => Evidence): ObservedBody | undefined {
  const content = obj(body.content);
  for (const [re, kind] of BODY_KINDS) {
    const type = Object.keys(content).find((t) => re.test(t));
    if (!type) continue;
    const media = obj(content[type]);
    return bodyFromSchema(kind, media.schema, mediaExample(media), ev(['content', type]));
  }
  return undefined;
}

function mediaExample(media: Obj): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.values(obj(media.examples))[0];
  return first !== undefined ? obj(first).value : undefined;
}

function bodyFromSchema(kind: ObservedBody['kind'], schema: unknown, example: unknown, evidence: Evidence): ObservedBody {
  const body: ObservedBody = { kind, fields: schemaFields(schema, evidence, 3), evidence };
  const ex = example ?? (isSchema(schema) ? schema.example : undefined);
  if (ex !== undefined) body.example = ex;
  return body;
}

function readResponses(
  op: ObservedOperation,
  responses: Obj,
  isSwagger2: boolean,
  ev: (s: string[], t: string) => Evidence,
  nameOf: (schema: unknown) => string | undefined,
): void {
  for (const [code, r] of Object.entries(responses)) {
    if (!/^[1-5]\d\d$/.test(code)) continue; // `default` and `2XX` state no status code
    const res = obj(r);
    const rEv = ev([code], `${code} ${typeof res.description === 'string' ? res.description : ''}`);
    let schema: unknown;
    let example: unknown;
    if (isSwagger2) {
      schema = res.schema;
      example = Object.values(obj(res.examples))[0];
    } else {
      const content = obj(res.content);
      const type = Object.keys(content).find((t) => /json/i.test(t)) ?? Object.keys(content)[0];
      if (type) {
        schema = obj(content[type]).schema;
        example = mediaExample(obj(content[type]));
      }
    }
    const response: ObservedResponse = { status: Number(code), fields: schemaFields(schema, rEv, 2), evidence: rEv };
    if (example !== undefined) response.example = example;
    const named = nameOf(schema);
    if (named) response.schema = named;
    op.responses.push(response);
    for (const [name, l] of Object.entries(obj(res.links))) {
      const link = readLink(name, obj(l), ev([code, 'links', name], `link ${name}`));
      if (link) op.links.push(link);
    }
  }
}

function readLink(name: string, l: Obj, evidence: Evidence): ObservedLink | undefined {
  if (typeof l.operationId !== 'string') return undefined; // operationRef: not followed
  const parameters: Record<string, Array<string | number>> = {};
  for (const [param, expr] of Object.entries(obj(l.parameters))) {
    const m = typeof expr === 'string' ? /^\$response\.body#(\/.*)?$/.exec(expr) : null;
    if (!m) continue;
    parameters[param] = (m[1] ?? '')
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return {
    name,
    operationId: l.operationId,
    parameters,
    evidence: { ...evidence, quote: quote(`${name} -> ${l.operationId} ${JSON.stringify(l.parameters ?? {})}`) },
  };
}

function readSecurity(req: unknown, evidence: Evidence): SecurityUse[] | undefined {
  if (!Array.isArray(req)) return undefined;
  const uses: SecurityUse[] = [];
  for (const r of req) for (const scheme of Object.keys(obj(r))) if (!uses.some((u) => u.scheme === scheme)) uses.push({ scheme, evidence });
  // `security: [{}]` (an empty requirement) also means "no authentication needed".
  if (req.some((r) => Object.keys(obj(r)).length === 0)) return [];
  return uses;
}

function readSchemes(api: Obj, isSwagger2: boolean, ev: (s: Array<string | number>, t: string) => Evidence): SecurityScheme[] {
  const defs = isSwagger2 ? obj(api.securityDefinitions) : obj(obj(api.components).securitySchemes);
  const base = isSwagger2 ? ['securityDefinitions'] : ['components', 'securitySchemes'];
  const out: SecurityScheme[] = [];
  for (const [id, raw] of Object.entries(defs)) {
    const s = obj(raw);
    const evidence = ev(
      [...base, id],
      `${id}: type ${String(s.type)}${s.scheme ? ` scheme ${scalarText(s.scheme)}` : ''}${s.flow ? ` flow ${scalarText(s.flow)}` : ''}`,
    );
    const description = typeof s.description === 'string' ? s.description : undefined;
    out.push({ id, ...schemeKind(s, isSwagger2), description, evidence });
  }
  return out;
}

type SchemeShape = Omit<SecurityScheme, 'id' | 'evidence' | 'description'>;

const OAUTH_FLOWS: Record<string, SchemeShape['kind']> = {
  clientCredentials: 'oauth2_client_credentials',
  application: 'oauth2_client_credentials',
  password: 'oauth2_password',
};

function schemeKind(s: Obj, isSwagger2: boolean): SchemeShape {
  const type = String(s.type);
  if (type === 'basic') return { kind: 'basic' };
  if (type === 'http') {
    const scheme = scalarText(s.scheme).toLowerCase();
    if (scheme === 'basic') return { kind: 'basic' };
    if (scheme === 'bearer') return { kind: 'bearer', location: 'header', paramName: 'Authorization', prefix: 'Bearer ' };
    return { kind: 'unsupported', detail: `HTTP authentication scheme "${scheme}"` };
  }
  if (type === 'apiKey') {
    const loc = String(s.in);
    if (loc !== 'header' && loc !== 'query' && loc !== 'cookie') return { kind: 'unsupported', detail: `apiKey in "${loc}"` };
    const prefix = typeof s.description === 'string' ? statedPrefix(s.description) : undefined;
    return { kind: 'api_key', location: loc, paramName: String(s.name), prefix };
  }
  if (type === 'oauth2') {
    const flows = isSwagger2 ? { [String(s.flow)]: s } : obj(s.flows);
    for (const [flow, f] of Object.entries(flows)) {
      const kind = OAUTH_FLOWS[flow];
      const tokenUrl = obj(f).tokenUrl;
      if (kind && typeof tokenUrl === 'string') return { kind, tokenUrl };
    }
    return {
      kind: 'unsupported',
      detail: `OAuth2 flow ${Object.keys(flows).join('/') || '(none)'}; only clientCredentials and password flows map to a strategy`,
    };
  }
  return { kind: 'unsupported', detail: `security scheme type "${type}"` };
}

/** `Token xxxxxx.yyyyyyy` in a description states the word before the credential. */
function statedPrefix(description: string): string | undefined {
  const m = /\b(Token|Bearer|JWT|token|Basic|Api-Key|ApiKey)\s+[xX]{3,}/.exec(description);
  return m ? `${m[1]} ` : undefined;
}
