// The observed-API model: what the readers saw in their inputs, and where. Every reader
// (OpenAPI, Postman, HAR, curl, Markdown) produces this one shape; inference reads only it.
// Each fact carries its evidence (file, location, short quote) so that every inference made
// from it can say why (docs/format.md#r5), and the grounding check can trace every emitted
// name (docs/format.md#r1).
import type { HttpMethod } from '../project/index.js';

/**
 * The input formats, the one list: a format added here must get a reader (readers/index.ts
 * READERS), an independent request count (check/coverage.ts) and a name in messages (below);
 * each of those is a Record over InputFormat, so the compiler says what is missing.
 */
export const INPUT_FORMATS = ['openapi', 'postman', 'har', 'curl', 'markdown'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];
/** How messages name each format, in INPUT_FORMATS order. */
export const FORMAT_NAMES: Record<InputFormat, string> = { openapi: 'OpenAPI', postman: 'Postman', har: 'HAR', curl: 'curl log', markdown: 'Markdown' };

/** Where a fact was read: the input file (as given), a location in it, and a short quote. */
export interface Evidence {
  file: string;
  /** a JSON pointer (`#/paths/~1pets/get`), `line N`, or `item "Folder / Name"` */
  at: string;
  /** a few words of the input, trimmed to ~80 characters */
  quote: string;
}

type ParamLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ObservedParam {
  name: string;
  in: ParamLocation;
  required: boolean;
  /** a value the input gives: example, default, first enum value, or the observed value */
  example?: unknown;
  /** true when `example` was seen in traffic (HAR/curl/Postman), not written as documentation */
  concrete?: boolean;
  /** the schema's `format` (email, uuid, date-time, …) when it states one */
  format?: string;
  evidence: Evidence;
}

/** A field of a request or response body; `path` is the keys from the body root. */
export interface ObservedField {
  path: string[];
  required: boolean;
  /** the field is inside a list: `path` is relative to each item of the list at `listPath` */
  listPath?: string[];
  /** what the input says the field holds, when it says */
  type?: 'object' | 'array' | 'scalar';
  example?: unknown;
  /** the schema's `format` (email, uuid, date-time, …) when it states one */
  format?: string;
  evidence: Evidence;
}

type BodyKind = 'json' | 'form' | 'multipart' | 'text';

export interface ObservedBody {
  kind: BodyKind;
  fields: ObservedField[];
  /** the body as given (OpenAPI example, Postman raw body, HAR/curl payload), parsed when JSON */
  example?: unknown;
  /** true when `example` is a body that was really sent (HAR/curl/Postman) */
  concrete?: boolean;
  evidence: Evidence;
}

export interface ObservedResponse {
  /** undefined when a body was seen but no status was stated */
  status?: number;
  fields: ObservedField[];
  /** the body as seen (HAR/curl/Postman saved response/Markdown example), parsed JSON */
  example?: unknown;
  /** the raw text of `example`, for exact value matching (big numbers lose digits in JSON.parse) */
  rawText?: string;
  /**
   * OpenAPI: the named schema the body is (`#/components/schemas/userSchema`): two answers that
   * name the same one answer the same kind of thing
   */
  schema?: string;
  /** Markdown: the response is described under this heading anchor (maybe in another input) */
  anchor?: string;
  evidence: Evidence;
}

/** One way an operation is authenticated: a security scheme id and the scopes (OpenAPI). */
export interface SecurityUse {
  scheme: string;
  evidence: Evidence;
}

/** A variable the input sets from this operation's response (Postman script, OpenAPI link source). */
interface VariableSet {
  variable: string;
  /** path in the response body; undefined when the value does not come from the response */
  field?: Array<string | number>;
  evidence: Evidence;
}

/** An OpenAPI link: after this operation, `operationId` can run with these parameters. */
export interface ObservedLink {
  name: string;
  operationId: string;
  /** parameter name -> path in this operation's response body (from `$response.body#/a/b`) */
  parameters: Record<string, Array<string | number>>;
  evidence: Evidence;
}

export interface ObservedOperation {
  /** unique in its input, e.g. `GET /pets/{id}` or `#3 GET /pets/1` */
  key: string;
  method: HttpMethod;
  /** the path with `{name}` placeholders (from OpenAPI/Markdown) or as seen (HAR/curl/Postman) */
  path: string;
  /** `scheme://host[:port]` the request goes to, when stated */
  origin?: string;
  /** a path prefix from the server URL (`/v1`), already part of `path` */
  serverPrefix?: string;
  operationId?: string;
  summary?: string;
  params: ObservedParam[];
  /** request headers seen or documented (auth headers included: the actor inference reads them) */
  headers: ObservedParam[];
  requestBody?: ObservedBody;
  responses: ObservedResponse[];
  /**
   * undefined: the input says nothing about authentication; []: stated public;
   * otherwise the alternatives (any one of them is enough).
   */
  security?: SecurityUse[];
  /** the input's own order (collection order, capture order, document order) */
  order: number;
  /** true for traffic (HAR, curl, Postman): path and values were really sent */
  concrete: boolean;
  sets: VariableSet[];
  links: ObservedLink[];
  /** Postman/curl/Markdown folder or heading the operation sits under */
  group?: string;
  evidence: Evidence;
}

type SchemeKind =
  | 'basic'
  | 'bearer'
  | 'api_key'
  | 'oauth2_client_credentials'
  | 'oauth2_password'
  | 'oauth1'
  | 'aws_sigv4'
  /** a token obtained by a login request the input shows (Postman script, login endpoint) */
  | 'login'
  /** stated by the input but not one of the supported strategies (authorizationCode, implicit, openIdConnect, …) */
  | 'unsupported';

export interface SecurityScheme {
  id: string;
  kind: SchemeKind;
  /** api_key: where and under which name */
  location?: 'header' | 'query' | 'cookie';
  paramName?: string;
  /** what precedes the credential in the header value, when the input states it (`Token `, `Bearer `) */
  prefix?: string;
  tokenUrl?: string;
  /** login: the operation key of the login request and the response path of the token */
  loginOperation?: string;
  tokenField?: Array<string | number>;
  /** the variable a collection stores the token in (Postman) */
  tokenVariable?: string;
  /** OAuth2 from a collection's token request: auth key (client_id, …) -> the collection variable it sends */
  credentialVars?: Record<string, string>;
  /** OAuth2 scope the token request sends */
  scope?: string;
  /** settings that are no credential, as the input states them (aws_sigv4 region/service, oauth1 realm) */
  settings?: Record<string, string>;
  /** why it is unsupported, for the open question */
  detail?: string;
  description?: string;
  evidence: Evidence;
}

/** A variable the input declares (Postman environment/collection variables, Markdown placeholders). */
interface ObservedVariable {
  name: string;
  /** the value as given; never copied when `credential` */
  value?: string;
  credential: boolean;
  evidence: Evidence;
}

interface InputInfo {
  file: string;
  format: InputFormat;
  /** e.g. `OpenAPI 3.0.3`, `Postman 2.1`, `HAR 1.2` */
  version: string;
  title?: string;
  /** operations stated in the input (before inference skips any) */
  operationCount: number;
  /** requests in the raw input by an independent count (check/coverage.ts), to catch a silent zero */
  scanned?: number;
}

/** Something a reader could not read or chose not to: becomes an open question. */
export interface ReaderNote {
  text: string;
  evidence: Evidence;
  /** operation keys this note blocks */
  blocks?: string[];
  /** an open question even when it blocks nothing (what the input leaves unknown) */
  question?: boolean;
}

export interface ObservedApi {
  inputs: InputInfo[];
  /** server URLs stated (OpenAPI servers/host, Postman base variable, HAR/curl origins) */
  servers: Array<{ url: string; evidence: Evidence }>;
  operations: ObservedOperation[];
  schemes: SecurityScheme[];
  variables: ObservedVariable[];
  notes: ReaderNote[];
  /**
   * Real credential values seen in traffic (tokens, passwords, keys, cookies). Never written to
   * any output; the leak check greps the output for each of them.
   */
  credentials: Set<string>;
  /** Markdown: heading anchor -> the JSON example under it */
  anchors?: Record<string, { example: unknown; evidence: Evidence }>;
}

export function emptyApi(): ObservedApi {
  return { inputs: [], servers: [], operations: [], schemes: [], variables: [], notes: [], credentials: new Set() };
}

/** Merge the APIs read from several inputs into one (order kept: first input first). */
export function mergeApis(apis: ObservedApi[]): ObservedApi {
  const out = emptyApi();
  let offset = 0;
  for (const api of apis) {
    out.inputs.push(...api.inputs);
    out.servers.push(...api.servers);
    for (const op of api.operations) out.operations.push({ ...op, order: op.order + offset });
    offset += api.operations.length;
    for (const s of api.schemes) if (!out.schemes.some((x) => x.id === s.id)) out.schemes.push(s);
    for (const v of api.variables) if (!out.variables.some((x) => x.name === v.name)) out.variables.push(v);
    out.notes.push(...api.notes);
    for (const c of api.credentials) out.credentials.add(c);
    if (api.anchors) out.anchors = { ...out.anchors, ...api.anchors };
  }
  return out;
}

/** A JSON-like map as readers and checks look into it: itself, or `{}` for anything else (arrays, scalars, null). */
export type Obj = Record<string, unknown>;
export function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

/** Shorten a quote for evidence: one line, at most `max` characters. */
export function quote(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** `#/a/b~1c`: a JSON pointer from path segments (RFC 6901 escaping). */
export function pointer(segments: ReadonlyArray<string | number>): string {
  return `#/${segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

export function evidenceText(e: Evidence): string {
  return `${e.file} ${e.at}: "${e.quote}"`;
}
