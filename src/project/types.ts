// The project model: the one place where the shapes of a loaded project are defined.
// Every later stage (lint, graph, runtime, auth, vitest, import, cli) uses these types.
import type { Document, LineCounter } from 'yaml';
import type { PosNode } from './positions.js';

/** A position in a source file. `file` is absolute; formatters make it relative. */
export interface Loc {
  file: string;
  line: number; // 1-based
  col: number; // 1-based
}

export type Severity = 'error' | 'warning';

/** One finding of the loader or of lint. Codes are listed in README.md. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  col: number;
}

/** A `!secret NAME` value. Resolved only at run time (env var, then keychain). */
export interface SecretRef {
  readonly __reqflow: 'secret';
  readonly name: string;
}

export function secretRef(name: string): SecretRef {
  return { __reqflow: 'secret', name };
}

export function isSecretRef(v: unknown): v is SecretRef {
  return typeof v === 'object' && v !== null && (v as SecretRef).__reqflow === 'secret' && typeof (v as SecretRef).name === 'string';
}

/**
 * A value from outside (a body explore drew from an API description, a server's answer) set on
 * an operation at run time: data, sent as it is and never rendered, whatever `{{` it holds.
 * Never read from a file (a file writes such text escaped: `{{'{{'}}`, docs/format.md#literal).
 */
export interface LiteralValue {
  readonly __reqflow: 'literal';
  readonly value: unknown;
}

export function literal(value: unknown): LiteralValue {
  const lit = { __reqflow: 'literal' as const, value };
  // JSON of the value itself: a step's body shows as what was sent
  Object.defineProperty(lit, 'toJSON', { value: () => value, enumerable: false });
  return lit;
}

export function isLiteral(v: unknown): v is LiteralValue {
  return typeof v === 'object' && v !== null && (v as LiteralValue).__reqflow === 'literal';
}

/**
 * A value as written in YAML: scalars, arrays, maps, and `SecretRef`s (and, set at run time,
 * `LiteralValue`s). Strings may hold `{{ ... }}` references; they are rendered by the runtime.
 */
export type TemplateValue = string | number | boolean | null | SecretRef | LiteralValue | TemplateValue[] | { [key: string]: TemplateValue };

/** The path of a node inside its file's YAML document, e.g. ['operations', 'create', 'body']. */
export type YamlPath = ReadonlyArray<string | number>;

/** Where a model node came from: its file, its path in that file, and its position. */
export interface Origin {
  file: string;
  yamlPath: YamlPath;
  loc: Loc;
}

export type FileKind = 'root' | 'environment' | 'actor' | 'resource' | 'discarded';

/** A parsed file, kept so that any node can be located later (lint, runner, vitest). */
export interface SourceFile {
  path: string; // absolute
  kind: FileKind;
  doc?: Document.Parsed;
  lineCounter?: LineCounter;
  /** the document as plain JS, as the loader read it (SecretRefs for `!secret`); absent when it could not be */
  value?: unknown;
  /** every node's position by YAML path (positions.ts); absent when the document has no contents */
  positions?: PosNode;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const AUTH_STRATEGIES = [
  'simple',
  'chain',
  'basic',
  'api_key',
  'bearer',
  'oauth2_client_credentials',
  'oauth2_password',
  'oauth1',
  'aws_sigv4',
  'jwt',
  'mtls',
] as const;
export type AuthStrategyName = (typeof AUTH_STRATEGIES)[number];

/** Extraction: `$.data…`, `$.headers.X`, `$.cookies.x`, `$.status_code` (jsonpath), or explicit regex/xpath. */
export type ExtractSource = 'jsonpath' | 'regex' | 'xpath';

export interface ExtractSpec extends Origin {
  /** the variable name, stored on the resource (or actor, at login) */
  name: string;
  path: string;
  source: ExtractSource;
}

/** A request as written in an actor's login (`simple`, a `chain` step, or `session.refresh`). */
export interface RequestSpec extends Origin {
  id?: string; // chain step id
  method: HttpMethod;
  path: string;
  headers: Record<string, TemplateValue>;
  queryParams: Record<string, TemplateValue>;
  body?: TemplateValue;
  bodyForm?: Record<string, TemplateValue>;
  expectStatus?: number[];
  extract: ExtractSpec[];
}

export interface AuthConfig extends Origin {
  /** normalized: an unknown strategy is `simple` (docs/format.md#silent-strategy) */
  strategy: AuthStrategyName;
  /** the strategy as written, for the W_UNKNOWN_STRATEGY warning */
  rawStrategy: unknown;
  /** every other key of the auth map, as written */
  options: Record<string, TemplateValue>;
  /** for `simple`: the login request; for `chain`: the steps */
  login?: RequestSpec;
  steps?: RequestSpec[];
}

export interface Actor extends Origin {
  id: string;
  description?: string;
  auth?: AuthConfig;
  session?: {
    ttlMs?: number;
    ttlRaw?: string;
    refresh?: RequestSpec;
  };
  inject: { headers: Record<string, TemplateValue> };
}

export interface PollSpec {
  condition: string[];
  intervalMs: number;
  maxAttempts: number;
}

export interface RetrySpec {
  max: number;
  backoffMs: number;
}

export interface Provenance {
  source?: string;
  evidence?: Record<string, string>;
  verifiedAgainst?: string;
}

export interface Operation extends Origin {
  /** `<resource>.<operation>` */
  id: string;
  resource: string;
  name: string;
  /** normalized: an unknown method is GET (docs/format.md#silent-method) */
  method: HttpMethod;
  path: string;
  actor?: string;
  /** empty when absent or when not a sequence (lint warns) */
  dependsOn: string[];
  headers: Record<string, TemplateValue>;
  queryParams: Record<string, TemplateValue>;
  body?: TemplateValue;
  bodyForm?: Record<string, TemplateValue>;
  expectStatus?: number[];
  extract: ExtractSpec[];
  /** empty when absent or when not a sequence (docs/format.md#silent-not-sequence: ignored) */
  assert: string[];
  /** where each item of `assert` is written, in the same order */
  assertLocs: Loc[];
  pollUntil?: PollSpec;
  /** resource id to iterate over */
  forEach?: string;
  force: boolean;
  /**
   * `acts_on: existing`: a write (PUT, PATCH, DELETE, a POST action) on instances that exist
   * before the run (from a list, a for_each, an id read back). Without it such a write is sent
   * only for instances this run created (docs/format.md#ownership).
   */
  actsOnExisting: boolean;
  auth?: AuthConfig;
  timeoutMs?: number;
  retry?: RetrySpec;
  preRequest?: string;
  postResponse?: string;
  provenance?: Provenance;
  /** the operation map as written, for lint */
  raw: Record<string, unknown>;
}

/**
 * **reqflow:** who besides the actor that created an instance may use it, by design
 * (docs/format.md#sharing). `flow explore --authz` judges another actor's access by it.
 */
export interface Sharing {
  /** the actors it is shared with; undefined: every actor of the project */
  with?: string[];
  /** `read`: they may read it; `write`: read, change and delete it too */
  access: 'read' | 'write';
  /** its place in `shared` when that is a sequence of grants (lint points there) */
  index?: number;
}

export interface Resource extends Origin {
  id: string;
  description?: string;
  /** operation ids in declaration order */
  operations: string[];
  /** absent: an instance is its creator's alone; several: each grant its actors and access (a role-based API) */
  shared?: Sharing[];
}

export interface Environment extends Origin {
  id: string;
  variables: Record<string, TemplateValue>;
  /** `redirect_hosts`: hosts a redirect to another origin may go to (any other is E_REDIRECT_ORIGIN) */
  redirectHosts?: string[];
  /** `write_hosts`: hosts besides loopback that calibrate and explore may send writes to */
  writeHosts?: string[];
}

export interface Project {
  /** absolute project directory */
  dir: string;
  /** absolute path of flow.yaml */
  rootFile: string;
  version?: number;
  name: string;
  defaultEnvironment?: string;
  imports: string[];
  environments: Map<string, Environment>;
  actors: Map<string, Actor>;
  resources: Map<string, Resource>;
  /** every operation, keyed `<resource>.<operation>`, in declaration order */
  operations: Map<string, Operation>;
  /** every file read, root first, in load order (discarded ones included: watch them too) */
  files: SourceFile[];
  /** what the loader found (E_YAML_PARSE, E_SCHEMA_VERSION, W_FILE_DISCARDED, …) */
  diagnostics: Diagnostic[];
}

/** The placeholder for a value supplied on each run (docs/format.md#set-via-var). */
export const SET_VIA_VAR = '<SET_VIA_--var>';
