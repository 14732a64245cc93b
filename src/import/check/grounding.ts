// The grounding check (docs/format.md#r1): every path, field name and status code in the emitted files traces
// to the input. It runs on every import; a failure fails the import loudly.
import { obj, type ObservedApi, type ObservedOperation } from '../observed.js';
import { parsePath, shapeOf } from '../infer/paths.js';
import { CHECK_CODES, type CheckFinding } from './finding.js';
import { PathIndex } from './path-index.js';
import type { ProjectView, ViewFile } from './view.js';
import { scalarText } from '../../project/index.js';

interface Vocabulary {
  fields: Set<string>;
  statuses: Set<number>;
  byEvidence: Map<string, ObservedOperation>;
  /** the input operations by path */
  paths: PathIndex;
}

function keysOf(v: unknown, into: Set<string>, depth = 0): void {
  if (depth > 16) return;
  if (Array.isArray(v)) for (const x of v.slice(0, 20)) keysOf(x, into, depth + 1);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      into.add(k);
      keysOf(x, into, depth + 1);
    }
  }
}

function vocabularyOf(api: ObservedApi): Vocabulary {
  const fields = new Set<string>();
  const statuses = new Set<number>();
  const byEvidence = new Map<string, ObservedOperation>();
  for (const op of api.operations) {
    byEvidence.set(`${op.evidence.file} ${op.evidence.at}`, op);
    for (const p of [...op.params, ...op.headers]) fields.add(p.name);
    for (const f of op.requestBody?.fields ?? []) for (const s of f.path) fields.add(s);
    keysOf(op.requestBody?.example, fields);
    for (const r of op.responses) {
      if (r.status !== undefined) statuses.add(r.status);
      for (const f of r.fields) for (const s of [...f.path, ...(f.listPath ?? [])]) fields.add(s);
      keysOf(r.example, fields);
    }
    for (const l of op.links) for (const p of Object.values(l.parameters)) for (const s of p) fields.add(String(s));
    for (const s of op.sets) for (const k of s.field ?? []) fields.add(String(k));
  }
  for (const s of api.schemes) {
    if (s.paramName) fields.add(s.paramName);
    for (const k of s.tokenField ?? []) fields.add(String(k));
  }
  return { fields, statuses, byEvidence, paths: new PathIndex(api.operations) };
}

function vars(s: string): string {
  return s.replace(/\{\{[^{}]+\}\}/g, '{}');
}

/** `$.data.user.token` -> ['user', 'token']; `$.data[*].id` -> ['id']; headers/cookies by name. */
function extractFields(path: string): string[] {
  const m = /^\$\.(data|headers|cookies)(.*)$/.exec(path);
  if (!m) return [];
  return [...m[2].matchAll(/\.([A-Za-z_$][\w$-]*)|\['([^']+)'\]/g)].map((x) => x[1] ?? x[2]);
}

function bodyKeys(v: unknown, where: string, out: Array<{ key: string; where: string }>, depth = 0): void {
  if (depth > 16) return;
  if (Array.isArray(v)) v.forEach((x, i) => bodyKeys(x, `${where}[${i}]`, out, depth + 1));
  else if (typeof v === 'object' && v !== null && !('__reqflow' in v)) {
    for (const [k, x] of Object.entries(v)) {
      out.push({ key: k, where: `${where}.${k}` });
      bodyKeys(x, `${where}.${k}`, out, depth + 1);
    }
  }
}

/** Header names that carry a credential whatever the scheme. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** No security stated (or stated empty) and no credential in any header or parameter the input shows for it. */
function isPublic(op: ObservedOperation, api: ObservedApi): boolean {
  if (op.security && op.security.length) return false;
  const schemeParams = new Set(api.schemes.flatMap((s) => (s.paramName ? [s.paramName.toLowerCase()] : [])));
  const sent = [...op.headers, ...op.params].map((p) => p.name.toLowerCase());
  return !sent.some((name) => CREDENTIAL_HEADERS.has(name) || schemeParams.has(name));
}

export function checkGrounding(view: ProjectView, api: ObservedApi): CheckFinding[] {
  const vocab = vocabularyOf(api);
  const out: CheckFinding[] = [];
  const bad = (file: ViewFile, where: string, message: string, code: string = CHECK_CODES.ungrounded): void => {
    out.push({ code, file: file.path, where, message });
  };
  const checkNames = (file: ViewFile, where: string, value: unknown, what: string): void => {
    const keys: Array<{ key: string; where: string }> = [];
    bodyKeys(value, where, keys);
    for (const k of keys) {
      // A form key in deepObject style (`billing[address][line1]`) names each level.
      const names = k.key.split(/[[\]]+/).filter((n) => n !== '' && !/^\d+$/.test(n));
      if (names.some((n) => !vocab.fields.has(n))) bad(file, k.where, `${what} field "${k.key}" is not in the input`);
    }
  };
  for (const [id, op] of view.operations) {
    const w = (k: string): string => `operations.${op.name}.${k}`;
    const method = scalarText(op.value.method, 'GET').toUpperCase();
    const path = typeof op.value.path === 'string' ? op.value.path : '';
    const shape = shapeOf(parsePath(path));
    const evidence = scalarText(obj(obj(op.value._provenance).evidence).operation);
    const source = vocab.byEvidence.get(evidence.split(': "')[0]);
    const matches = vocab.paths.matching(shape, method);
    if (!matches.length) bad(op.file, w('path'), `${id}: ${method} ${path} matches no operation of the input`);
    for (const k of ['body', 'body_form']) checkNames(op.file, w(k), op.value[k], id);
    for (const k of Object.keys(obj(op.value.query_params)))
      if (!vocab.fields.has(k)) bad(op.file, w(`query_params.${k}`), `${id}: query parameter "${k}" is not in the input`);
    for (const k of Object.keys(obj(op.value.headers))) if (!vocab.fields.has(k)) bad(op.file, w(`headers.${k}`), `${id}: header "${k}" is not in the input`);
    for (const [name, p] of Object.entries(obj(op.value.extract))) {
      for (const f of extractFields(typeof p === 'string' ? p : scalarText(obj(p).path)))
        if (!vocab.fields.has(f)) bad(op.file, w(`extract.${name}`), `${id}: extracted field "${f}" is not in the input`);
    }
    const codes = ([] as unknown[]).concat(op.value.expect_status ?? []);
    const stated = new Set((source ? [source, ...matches] : matches).flatMap((o) => o.responses.map((r) => r.status)));
    for (const c of codes) {
      if (typeof c !== 'number' || !(stated.size ? stated.has(c) : vocab.statuses.has(c)))
        bad(op.file, w('expect_status'), `${id}: status ${String(c)} is not stated for ${method} ${path} in the input`);
    }
    // Public: the input operation (found by evidence, else by method and path) states no
    // security and no example of it sends a credential.
    const described = source ? [source] : matches;
    if (op.value.actor !== undefined && described.length && described.every((o) => isPublic(o, api))) {
      bad(op.file, w('actor'), `${id}: the input states no authentication for ${described[0].key}: actor must be omitted`, CHECK_CODES.publicActor);
    }
  }
  for (const [id, a] of view.actors) {
    const auth = obj(a.value.auth);
    for (const k of ['body', 'body_form']) checkNames(a.file, `auth.${k}`, auth[k], `actor ${id}`);
    if (typeof auth.path === 'string') {
      const shape = shapeOf(parsePath(auth.path));
      if (!vocab.paths.matching(shape).length) bad(a.file, 'auth.path', `actor ${id}: login path ${auth.path} matches no operation of the input`);
    }
    for (const [name, p] of Object.entries(obj(auth.extract))) {
      for (const f of extractFields(String(p)))
        if (!vocab.fields.has(f)) bad(a.file, `auth.extract.${name}`, `actor ${id}: extracted field "${f}" is not in the input`);
    }
    for (const h of Object.keys(obj(obj(a.value.inject).headers)))
      if (!vocab.fields.has(h)) bad(a.file, `inject.headers.${h}`, `actor ${id}: header "${h}" is not in the input`);
    if (typeof auth.token_url === 'string' && !api.schemes.some((s) => s.tokenUrl !== undefined && vars(s.tokenUrl) === vars(String(auth.token_url))))
      bad(a.file, 'auth.token_url', `actor ${id}: token_url is not in the input`);
    if (typeof auth.name === 'string' && auth.strategy === 'api_key' && !vocab.fields.has(auth.name))
      bad(a.file, 'auth.name', `actor ${id}: "${auth.name}" is not in the input`);
  }
  return out;
}
