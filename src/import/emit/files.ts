// The project files as YAML documents (yaml's Document API: key order, `!secret` tags and
// comments as intended), in the order of docs/format.md#files-written: root, environment, actors, resources.
import { Document, isScalar, type YAMLMap } from 'yaml';
import { MAX_ALIAS_COUNT, YAML_TAGS } from '../../project/index.js';
import type { Draft, DraftActor, DraftOperation, DraftResource } from '../infer/draft.js';

export type EmittedKind = 'root' | 'environment' | 'actor' | 'resource';

export interface EmittedFile {
  /** relative to the project directory, `/`-separated */
  path: string;
  kind: EmittedKind;
  /** the id inside (`name:`), for --into */
  id?: string;
  doc: Document;
}

export const ROOT_FILE = 'flow.yaml';

/**
 * Evidence and descriptions quote the input, which may hold `{{var}}` (Postman): written
 * inert (`{ {var} }`) so that no reader of the project takes a quote for a reference.
 */
function inert(text: string): string {
  return text.replace(/\{\{/g, '{ {').replace(/\}\}/g, '} }');
}

function inertMap(m: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, inert(v)]));
}

export function newDoc(value: unknown): Document {
  return new Document(value, { customTags: YAML_TAGS, keepSourceTokens: false });
}

export function emitFiles(draft: Draft): EmittedFile[] {
  const files: EmittedFile[] = [rootFile(draft), environmentFile(draft)];
  for (const a of draft.actors) files.push(actorFile(a));
  for (const r of draft.resources) files.push(resourceFile(r));
  return files;
}

function rootFile(draft: Draft): EmittedFile {
  const imports = ['environments/*.yaml'];
  if (draft.actors.length) imports.push('actors/*.yaml');
  if (draft.resources.length) imports.push('resources/*.yaml');
  const doc = newDoc({ version: 1, name: draft.projectName, default_environment: draft.environment, imports });
  const inputs = draft.api.inputs.map((i) => `${i.file} (${i.version})`).join(', ');
  doc.commentBefore = ` Imported by \`flow import\` from ${inputs || 'no input'}.\n Read the plan's open questions before running; every operation says why under _provenance.evidence.`;
  return { path: ROOT_FILE, kind: 'root', doc };
}

function environmentFile(draft: Draft): EmittedFile {
  const variables: Record<string, unknown> = { baseUrl: draft.baseUrl };
  for (const v of draft.variables) variables[v.name] = v.value;
  const doc = newDoc({ name: draft.environment, variables });
  const vars = doc.get('variables') as YAMLMap;
  commentOn(vars, 'baseUrl', draft.baseUrlNote);
  for (const v of draft.variables) commentOn(vars, v.name, v.notes);
  if (draft.secrets.length) {
    doc.comment = ` Secrets referenced as {{secret.NAME}} (keychain, or FLOW_SECRET_<NAME> in CI):\n${draft.secrets.map((s) => `   ${s.name}: ${inert(oneLine(s.notes))}`).join('\n')}`;
  }
  return { path: `environments/${draft.environment}.yaml`, kind: 'environment', id: draft.environment, doc };
}

function commentOn(map: YAMLMap, key: string, text: string): void {
  const node = map.get(key, true);
  if (node && isScalar(node) && text) node.comment = ` ${inert(oneLine(text))}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function actorFile(a: DraftActor): EmittedFile {
  const value: Record<string, unknown> = { name: a.name, description: inert(a.description), auth: a.auth };
  if (a.injectHeaders) value.inject = { headers: a.injectHeaders };
  const doc = newDoc(value);
  doc.commentBefore = [` Actor ${a.name}: ${oneLine(a.loginReturns)}.`, ...a.evidence.map((e) => ` evidence: ${e.file} ${e.at}: "${oneLine(e.quote)}"`)]
    .map(inert)
    .join('\n');
  return { path: `actors/${a.name}.yaml`, kind: 'actor', id: a.name, doc };
}

function resourceFile(r: DraftResource): EmittedFile {
  const operations: Record<string, unknown> = {};
  for (const op of r.operations) operations[op.name] = operationValue(op);
  const doc = newDoc({ name: r.name, operations });
  doc.commentBefore = ` Resource ${r.name}: ${oneLine(r.evidence)}.`;
  return { path: `resources/${r.plural}.yaml`, kind: 'resource', id: r.name, doc };
}

/** Only the keys of docs/format.md#operations (docs/format.md#r4), in a fixed order; empty ones omitted (docs/format.md#r3). */
function operationValue(op: DraftOperation): Record<string, unknown> {
  const out: Record<string, unknown> = { method: op.method, path: op.path };
  if (op.actor) out.actor = op.actor;
  if (op.dependsOn.length) out.depends_on = op.dependsOn;
  if (Object.keys(op.headers).length) out.headers = op.headers;
  if (Object.keys(op.queryParams).length) out.query_params = op.queryParams;
  if (op.body !== undefined) out.body = op.body;
  if (op.bodyForm && Object.keys(op.bodyForm).length) out.body_form = op.bodyForm;
  if (op.expectStatus.length) out.expect_status = op.expectStatus.length === 1 ? op.expectStatus[0] : op.expectStatus;
  if (Object.keys(op.extract).length) out.extract = op.extract;
  out._provenance = { source: 'ai_import', evidence: inertMap(op.evidence), verified_against: 'synthetic' };
  return out;
}

/** The text of a document as written: long lines kept whole (evidence quotes, paths). */
export function docText(doc: Document): string {
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

/** Plain JS of a template value tree (SecretRefs kept), for checks on emitted documents. */
export function docValue(doc: Document): unknown {
  return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}
