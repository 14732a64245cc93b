// Self-check items about the shape of the files (docs/format.md#self-check, and
// docs/format.md#r3, docs/format.md#r4, docs/format.md#r5): credentials are secrets, baseUrl
// stops at the host, depends_on/assert are non-empty sequences, no empty keys, the strategy is
// one of AUTH_STRATEGIES, only the format's keys, `_provenance` on every imported operation.
import { AUTH_STRATEGIES, isCredentialName, isSecretRef, SET_VIA_VAR } from '../../project/index.js';
import { readSchema, SCHEMA_FILES } from '../../lint/index.js';
import { CHECK_CODES, type CheckFinding } from './finding.js';
import type { ProjectView, ViewFile } from './view.js';
import { refsIn, stringsOf } from './walk.js';
import { obj } from '../observed.js';

type KeyedKind = 'root' | 'environment' | 'actor' | 'resource' | 'operation';
let keys: Record<KeyedKind, readonly string[]> | undefined;

/** The keys each kind may hold (docs/format.md#r4): the schemas' own `properties`, the lists lint and editors check against. */
function keysOf(kind: KeyedKind): readonly string[] {
  keys ??= {
    root: propertiesOf(readSchema(SCHEMA_FILES.root!)),
    environment: propertiesOf(readSchema(SCHEMA_FILES.environment!)),
    actor: propertiesOf(readSchema(SCHEMA_FILES.actor!)),
    resource: propertiesOf(readSchema(SCHEMA_FILES.resource!)),
    operation: propertiesOf(obj(obj(readSchema(SCHEMA_FILES.resource!).definitions).operation)),
  };
  return keys[kind];
}

function propertiesOf(schema: Record<string, unknown>): string[] {
  return Object.keys(obj(schema.properties));
}

export function checkShape(view: ProjectView, secretEnv: Set<string>): CheckFinding[] {
  const out: CheckFinding[] = [];
  const push = (file: ViewFile, where: string, code: string, message: string): void => {
    out.push({ code, file: file.path, where, message });
  };
  for (const f of view.files) {
    if (f.kind !== 'root' && f.kind !== 'environment' && f.kind !== 'actor' && f.kind !== 'resource') continue;
    for (const k of Object.keys(f.value))
      if (!keysOf(f.kind).includes(k)) push(f, k, CHECK_CODES.unknownKey, `"${k}" is not a key of ${f.kind} files (docs/format.md#r4)`);
  }
  for (const env of view.environments) {
    const base = env.variables.baseUrl;
    if (typeof base === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/./i.test(base) && !base.includes('{{')) {
      push(
        env.file,
        'variables.baseUrl',
        CHECK_CODES.baseUrl,
        `baseUrl "${base}" has a path: it must stop at the host; move the path into each operation path`,
      );
    }
    for (const [k, v] of Object.entries(env.variables)) {
      if (isCredentialName(k) && !isSecretRef(v) && typeof v === 'string' && v !== SET_VIA_VAR && !plainIsSafe(v, secretEnv)) {
        push(env.file, `variables.${k}`, CHECK_CODES.plaintext, `"${k}" holds a credential in plain text: use !secret ${k.toUpperCase()}`);
      }
    }
  }
  for (const [id, a] of view.actors) {
    const auth = obj(a.value.auth);
    if ('strategy' in auth && !(AUTH_STRATEGIES as readonly string[]).includes(String(auth.strategy))) {
      push(
        a.file,
        'auth.strategy',
        CHECK_CODES.strategy,
        `strategy "${String(auth.strategy)}" is not one of the ${AUTH_STRATEGIES.length} (${AUTH_STRATEGIES.join(', ')})`,
      );
    }
    for (const [k, v] of Object.entries(auth)) {
      if (isCredentialName(k) && !isSafeCredential(v, secretEnv))
        push(a.file, `auth.${k}`, CHECK_CODES.plaintext, `actor ${id}: auth.${k} must be a !secret or {{secret.X}}`);
    }
    for (const s of stringsOf(a.file, a.value.inject, 'inject')) {
      if (isCredentialName(s.key) && !isSafeCredential(s.text, secretEnv))
        push(a.file, s.where, CHECK_CODES.plaintext, `actor ${id}: ${s.where} sends a credential in plain text`);
    }
    const { extract: _extract, ...authRest } = auth;
    void _extract; // extraction paths name where a token is read, not a credential
    credentialsIn(a.file, authRest, 'auth', secretEnv, push, new Set(['strategy', ...Object.keys(auth).filter(isCredentialName)]));
  }
  for (const [id, op] of view.operations) {
    const where = (k: string): string => `operations.${op.name}${k ? `.${k}` : ''}`;
    for (const k of Object.keys(op.value))
      if (!keysOf('operation').includes(k)) push(op.file, where(k), CHECK_CODES.unknownKey, `${id}: "${k}" is not an operation key (docs/format.md#r4)`);
    for (const k of ['depends_on', 'assert']) {
      if (!(k in op.value)) continue;
      const v = op.value[k];
      if (!Array.isArray(v)) push(op.file, where(k), CHECK_CODES.notSequence, `${id}: ${k} must be a sequence`);
      else if (!v.length) push(op.file, where(k), CHECK_CODES.empty, `${id}: empty ${k}: omit it (docs/format.md#r3)`);
    }
    for (const k of ['actor', 'headers', 'query_params', 'body_form', 'extract', 'body']) {
      if (!(k in op.value)) continue;
      const v = op.value[k];
      const empty = v === null || v === '' || (typeof v === 'object' && !isSecretRef(v) && Object.keys(v).length === 0);
      if (empty) push(op.file, where(k), CHECK_CODES.empty, `${id}: empty ${k}: omit it (docs/format.md#r3)`);
    }
    if (typeof op.value.actor === 'string' && op.value.actor && !view.actors.has(op.value.actor)) {
      push(op.file, where('actor'), CHECK_CODES.scope, `${id}: actor "${op.value.actor}" does not exist`);
    }
    const auth = obj(op.value.auth);
    if ('strategy' in auth && !(AUTH_STRATEGIES as readonly string[]).includes(String(auth.strategy)))
      push(
        op.file,
        where('auth.strategy'),
        CHECK_CODES.strategy,
        `${id}: strategy "${String(auth.strategy)}" is not one of the ${AUTH_STRATEGIES.length} strategies`,
      );
    for (const k of ['headers', 'query_params', 'body', 'body_form', 'auth']) credentialsIn(op.file, op.value[k], where(k), secretEnv, push);
    const prov = obj(op.value._provenance);
    if (prov.source !== 'ai_import' || !Object.keys(obj(prov.evidence)).length || typeof prov.verified_against !== 'string') {
      push(
        op.file,
        where('_provenance'),
        CHECK_CODES.provenance,
        `${id}: _provenance needs source: ai_import, evidence and verified_against (docs/format.md#r5)`,
      );
    }
  }
  return out;
}

function credentialsIn(
  file: ViewFile,
  value: unknown,
  where: string,
  secretEnv: Set<string>,
  push: (f: ViewFile, w: string, c: string, m: string) => void,
  skip = new Set<string>(),
): void {
  for (const s of stringsOf(file, value, where)) {
    if (skip.has(s.key) && s.where === `${where}.${s.key}`) continue;
    if (isCredentialName(s.key) && !isSafeCredential(s.text, secretEnv))
      push(file, s.where, CHECK_CODES.plaintext, `${s.where} holds a credential in plain text: use {{secret.X}}`);
  }
  const walk = (v: unknown, w: string, key: string): void => {
    if (typeof v === 'number' && isCredentialName(key)) push(file, w, CHECK_CODES.plaintext, `${w} holds a credential in plain text: use {{secret.X}}`);
    else if (typeof v === 'object' && v !== null && !isSecretRef(v)) for (const [k, x] of Object.entries(v)) walk(x, `${w}.${k}`, k);
  };
  walk(value, where, '');
}

/** A !secret, or a template whose every non-literal part is a secret, an actor/resource value or a !secret env var. */
function isSafeCredential(v: unknown, secretEnv: Set<string>): boolean {
  if (v === undefined || v === null || typeof v === 'boolean') return true;
  if (isSecretRef(v)) return true;
  if (typeof v === 'object') return true; // a nested map: its strings are checked one by one
  if (typeof v !== 'string') return false;
  return plainIsSafe(v, secretEnv);
}

function plainIsSafe(v: string, secretEnv: Set<string>): boolean {
  const { refs } = refsIn(v);
  if (!refs.length) return v === '' || v === SET_VIA_VAR;
  return refs.some((r) => r.kind === 'secret' || r.kind === 'scoped' || (r.kind === 'env' && secretEnv.has(r.name)));
}
