// Request values (body, query, headers) as templates: a credential becomes a secret and is
// never copied; a collection variable or a value an earlier response returned becomes a
// reference; a documented example stays; a required field the input gives no value for is
// supplied by the user on each run. Nothing else is added (docs/format.md#r3: no placeholder fields).
import { keptUnique, withUniquePart, type TemplateValue } from '../../project/index.js';
import { escapeTemplate } from '../../graph/index.js';
import type { Evidence, InputFormat, ObservedBody, ObservedField } from '../observed.js';
import type { Resolver } from './bindings.js';
import type { InferContext } from './context.js';
import type { Endpoint } from './endpoints.js';
import { isCredentialName, snake } from './names.js';
import { segmentText } from './paths.js';

export interface ValueScope {
  ctx: InferContext;
  resolver: Resolver;
  endpoint: Endpoint;
  /** prefix for secret and variable names (`conduit_user`, `pet`) */
  owner: string;
  /** evidence collected for `_provenance` */
  evidence: Record<string, string>;
}

const VAR_RE = /\{\{\s*([^{}]+?)\s*\}\}/g;
const USERINFO_RE = /([a-z][a-z0-9+.-]*:\/\/)([^:@/\s]+):([^@/\s]+)@/gi;

/** A string as sent or documented, with variables, credentials in URLs and earlier values resolved. */
export function templateString(text: string, key: string, scope: ValueScope): string {
  // A description or captured traffic has no variables: a `{{` there is data (an enum of
  // "{{secret.X}}" must not become a reference), written escaped. Postman, curl and Markdown
  // inputs write their variables as {{name}}.
  const data = isDataInput(scope);
  const start = data ? escapeTemplate(text) : text;
  let out = data
    ? start
    : text.replace(VAR_RE, (_m, name: string) => {
        const b = scope.resolver.variable(name.trim(), scope.endpoint);
        if (b.ref.startsWith('{{') && !b.ref.startsWith('{{env.') && !b.ref.startsWith('{{secret.') && !b.ref.startsWith('{{$')) scope.evidence[key] = b.why;
        return b.ref;
      });
  // A URL with user:password@ inside a value (e.g. a replication target) keeps its shape only.
  out = out.replace(USERINFO_RE, (_m, proto: string, user: string) => {
    const u = scope.ctx.userVar(`${snake(scope.owner)}_url_user`, `user name inside a URL sent in ${key}`);
    const p = scope.ctx.secret(`${scope.owner}_url_password`, `password inside a URL sent in ${key} (the captured value is not copied)`);
    void user;
    return `${proto}${u}:${p}@`;
  });
  if (out === start) {
    const b = scope.resolver.value(text, scope.endpoint);
    if (b) {
      scope.evidence[key] = b.why;
      return b.ref;
    }
  }
  return out;
}

const DATA_FORMATS = new Set<InputFormat>(['openapi', 'har']);

function isDataInput(scope: ValueScope): boolean {
  const file = scope.endpoint.ops[0]?.evidence.file;
  const input = scope.ctx.api.inputs.find((i) => i.file === file) ?? (scope.ctx.api.inputs.length === 1 ? scope.ctx.api.inputs[0] : undefined);
  return input !== undefined && DATA_FORMATS.has(input.format);
}

/** A JSON value as sent or documented. */
function templateValue(value: unknown, key: string, scope: ValueScope, depth = 0): TemplateValue | undefined {
  if (depth > 12) return undefined;
  if (typeof value === 'string') return templateString(value, key, scope);
  if (typeof value === 'number') {
    const b = scope.resolver.value(String(value), scope.endpoint);
    if (b) {
      scope.evidence[key] = b.why;
      return b.ref;
    }
    return value;
  }
  if (typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.map((v, i) => templateValue(v, `${key}[${i}]`, scope, depth + 1) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, TemplateValue> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const child = `${key}.${k}`;
      if (isCredentialName(k) && (typeof v === 'string' || typeof v === 'number') && !isReference(v)) {
        out[k] = scope.ctx.secret(`${scope.owner}_${k}`, `${k} sent by ${scope.endpoint.ops[0].key}`);
        continue;
      }
      const t = templateValue(v, child, scope, depth + 1);
      if (t !== undefined) out[k] = runUnique(k, t, child, scope);
    }
    return out;
  }
  return undefined;
}

/**
 * A literal that must be unique, in a create's body (a POST), gets a run-unique part so the
 * project runs twice: `disable-comments` becomes `disable-comments-{{$.uuid}}`, an e-mail (in
 * any field) `jo+{{$.uuid}}@example.com`. A reference or a generated value is left as it is.
 */
function runUnique(field: string, value: TemplateValue, key: string, scope: ValueScope): TemplateValue {
  if (scope.endpoint.method !== 'POST' || typeof value !== 'string' || !value || value.includes('{{') || !keptUnique(field, value)) return value;
  const out = withUniquePart(value);
  scope.evidence[key] = `${JSON.stringify(value)} with a run-unique part: a server keeps ${field} unique, and a second run must not answer 409`;
  return out;
}

function isReference(v: unknown): boolean {
  return typeof v === 'string' && /^\{\{\s*[^{}]+\}\}$/.test(v.trim()) && !/^\{\{\s*\$/.test(v.trim());
}

/**
 * Generators for the formats a value can be made up for and still be what the description
 * asks (docs/format.md#builtins): a grounded inference, since the input states the format.
 */
const FORMAT_GENERATORS: Record<string, string> = {
  email: '$.faker.email',
  uuid: '$.uuid',
  'date-time': '$.now',
  uri: '$.faker.url',
  url: '$.faker.url',
  ipv4: '$.faker.ipv4',
};

export function generatorFor(format: string | undefined): string | undefined {
  return format ? FORMAT_GENERATORS[format] : undefined;
}

/** `{{$.faker.email}}` for a value whose format the input states, with that evidence under `key`. */
export function generated(format: string, key: string, evidence: Evidence, scope: ValueScope): string {
  const gen = generatorFor(format)!;
  scope.evidence[key] = `format ${format} stated by ${evidence.file} ${evidence.at}, no example: generated with ${gen}`;
  return `{{${gen}}}`;
}

/** Body from a schema without example: required fields only, with the values the schema states. */
function bodyFromFields(fields: ObservedField[], scope: ValueScope, json: boolean): Record<string, TemplateValue> | undefined {
  const out: Record<string, TemplateValue> = {};
  let any = false;
  for (const f of fields) {
    if (!f.required || f.listPath) continue;
    // Nested required fields only under required parents (`fields` has both `user` and `user.email`).
    if (!parentsRequired(f, fields)) continue;
    if (json && isShapeless(f, fields)) {
      // a list or a free-form object with no example: a value the user gives (a list or a map
      // under `variables:` of the environment file), or calibrate proves from the schema
      const what = f.type === 'array' ? 'list' : 'map';
      const notes = `required ${what} ${f.path.join('.')} of ${scope.endpoint.ops[0].key}; the input gives no example value (give it as a YAML ${what} under variables:)`;
      setPath(out, f.path, scope.ctx.userVar(`${scope.owner}_${snake(f.path[f.path.length - 1])}`, notes));
      any = true;
      continue;
    }
    // An object is written through its required children. A required object none of whose
    // fields is required is sent empty (`{"user": {}}`): leaving it out breaks the schema.
    if (f.type !== 'array' && (hasChildren(f, fields) || f.type === 'object')) {
      if (!fields.some((c) => c.required && !c.listPath && c.path.length === f.path.length + 1 && f.path.every((s, j) => s === c.path[j]))) {
        setPath(out, f.path, {});
        any = true;
      }
      continue;
    }
    if (f.type === 'array') {
      // a list of plain values the description gives an example of is sent with it (a list of
      // objects would bring keys the grounding check cannot trace)
      if (Array.isArray(f.example) && f.example.every((v) => v === null || typeof v !== 'object')) {
        const value = templateValue(f.example, `body.${f.path.join('.')}`, scope);
        if (value !== undefined) {
          setPath(out, f.path, value);
          any = true;
        }
      }
      continue;
    }
    const name = f.path[f.path.length - 1];
    let value: TemplateValue;
    if (isCredentialName(name))
      value = scope.ctx.secret(`${scope.owner}_${name}`, `${name} required by ${scope.endpoint.ops[0].key} (${f.evidence.file} ${f.evidence.at})`);
    else if (typeof f.example === 'string' && LOGIN_NAME.test(name) && isLogin(fields, scope))
      // the login's user goes with its password: the example is the default, the user gives theirs
      value = scope.ctx.userVar(
        `${scope.owner}_${snake(name)}`,
        `${name} that logs in with the password of ${scope.endpoint.ops[0].key} (the input's example: ${JSON.stringify(f.example.slice(0, 40))}); give yours with --var`,
        escapeTemplate(f.example),
      );
    else if (f.example !== undefined && (typeof f.example !== 'object' || f.example === null))
      value = runUnique(name, typeof f.example === 'string' ? escapeTemplate(f.example) : (f.example as TemplateValue), `body.${f.path.join('.')}`, scope);
    else if (generatorFor(f.format)) value = generated(f.format!, `body.${f.path.join('.')}`, f.evidence, scope);
    else
      value = scope.ctx.userVar(
        `${scope.owner}_${snake(name)}`,
        `required field ${f.path.join('.')} of ${scope.endpoint.ops[0].key}; the input gives no example value`,
      );
    setPath(out, f.path, value);
    any = true;
  }
  return any ? out : undefined;
}

const LOGIN_NAME = /^(user(name)?|user_name|login|email|e_?mail)$/i;
const LOGIN_PATH = /^(login|log_in|signin|sign_in|session|sessions|authenticate)$/i;

/** A POST to a login word (`/auth/simple/login`) whose body requires a password: a login, not a create. */
function isLogin(fields: ObservedField[], scope: ValueScope): boolean {
  const last = [...scope.endpoint.segments].reverse().map(segmentText).find(Boolean);
  if (scope.endpoint.method !== 'POST' || !last || !LOGIN_PATH.test(last)) return false;
  return fields.some((f) => f.required && isCredentialName(f.path[f.path.length - 1]));
}

/**
 * Required fields of a form body the input gives neither a value nor a shape for (a list, a
 * free-form object): a form's flat fields (`items[0][price]`) cannot take a variable's list or
 * map, so the operation is an open question. A JSON body takes them as variables (bodyFromFields).
 */
export function unfillableFields(body: ObservedBody | undefined): ObservedField[] {
  if (!body || body.example !== undefined || body.kind === 'json') return [];
  return body.fields.filter((f) => f.required && !f.listPath && parentsRequired(f, body.fields) && isShapeless(f, body.fields));
}

/** A required list or free-form object the input gives no example of: no value can be read from the input. */
function isShapeless(f: ObservedField, fields: ObservedField[]): boolean {
  return f.example === undefined && (f.type === 'array' || (f.type === 'object' && !hasChildren(f, fields)));
}

/** Every enclosing field of `f` is required too (`fields` has both `user` and `user.email`). */
function parentsRequired(f: ObservedField, fields: ObservedField[]): boolean {
  return f.path
    .slice(0, -1)
    .every((_, i) => fields.some((p) => p.required && !p.listPath && p.path.length === i + 1 && p.path.every((s, j) => s === f.path[j])));
}

/** `f` has fields of its own one level down. */
function hasChildren(f: ObservedField, fields: ObservedField[]): boolean {
  return fields.some((c) => !c.listPath && c.path.length === f.path.length + 1 && f.path.every((s, j) => s === c.path[j]));
}

function setPath(target: Record<string, TemplateValue>, path: string[], value: TemplateValue): void {
  let node = target;
  for (const k of path.slice(0, -1)) {
    const next = node[k];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[k] = {};
    node = node[k] as Record<string, TemplateValue>;
  }
  node[path[path.length - 1]] = value;
}

/** The request body of an endpoint as a template, or undefined (docs/format.md#r3: omit rather than fill). */
export function templateBody(body: ObservedBody | undefined, scope: ValueScope): TemplateValue | undefined {
  if (!body) return undefined;
  if (body.example !== undefined) {
    if (typeof body.example === 'string' && body.kind === 'text') return templateString(body.example, 'body', scope);
    return templateValue(body.example, 'body', scope);
  }
  return bodyFromFields(body.fields, scope, body.kind === 'json');
}
