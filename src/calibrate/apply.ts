// --apply: the proposals written into the project's files in place (docs/format.md#r7: comments, order and
// the user's other values kept), then `_provenance.verified_against: live_capture` and the
// evidence `observed: METHOD path -> status` on the operations that passed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isScalar, isSeq, type Document } from 'yaml';
import { editYamlFile, SET_VIA_VAR, writeProjectFile, type Project, type YamlPath } from '../project/index.js';
import { recordVerified, type OperationResult } from '../runner/index.js';
import type { Edit, Proposal } from './types.js';

interface Change {
  path: YamlPath;
  value: unknown;
  /** for an extraction: the node may be a string or a `{ path, source }` map */
  extract?: boolean;
  /** an item added to the sequence at `path` (made when absent; the user's items and their comments kept) */
  append?: boolean;
}

export async function applyCalibration(
  project: Project,
  proposals: readonly Proposal[],
  results: OperationResult[],
  observed: ReadonlyMap<string, string>,
): Promise<{ files: string[]; verified: string[] }> {
  const byFile = new Map<string, Change[]>();
  const files = new Set<string>();
  // an operation's path with every id linked (one edit per id, written as one new path)
  const paths = new Map<string, string>();
  for (const { edit: e } of proposals) {
    if (e.kind === 'path_ref') paths.set(e.operation, (paths.get(e.operation) ?? project.operations.get(e.operation)!.path).split(e.from).join(e.to));
  }
  for (const { edit } of proposals) {
    if (edit.kind === 'login') {
      for (const f of await writeLogin(project, edit)) files.add(f);
      continue;
    }
    const [file, change] = located(project, edit, paths);
    byFile.set(file, [...(byFile.get(file) ?? []), change]);
  }
  for (const [file, changes] of byFile) {
    const changed = await editYamlFile(project.dir, file, (doc) => {
      for (const c of changes) {
        if (c.append) {
          appendTo(doc, c.path, c.value);
          continue;
        }
        const atPath = c.extract && typeof doc.getIn(c.path) !== 'string';
        const target = atPath ? [...c.path, 'path'] : c.path;
        // a field under a value written as a scalar (`body: null`, or a body the same round
        // gave a whole value): the scalar becomes a map to hold it, instead of the edit failing
        for (let i = target.length - 1; i > 0; i--) {
          if (isScalar(doc.getIn(target.slice(0, i), true))) {
            doc.setIn(target.slice(0, i), doc.createNode({}));
            break;
          }
        }
        // an object as a node: a later change in the same file may set a field inside it (a body, then one of its fields)
        doc.setIn(target, c.value !== null && typeof c.value === 'object' ? doc.createNode(c.value) : c.value);
      }
    });
    if (changed) files.add(file);
  }
  const recorded = await recordVerified(project, results, observed);
  for (const f of recorded.files) files.add(f);
  return { files: [...files], verified: recorded.operations };
}

function located(project: Project, e: Exclude<Edit, { kind: 'login' }>, paths: ReadonlyMap<string, string>): [string, Change] {
  if (e.kind === 'header_form') {
    const actor = project.actors.get(e.actor)!;
    if (e.place === 'inject') return [actor.file, { path: [...actor.yamlPath, 'inject', 'headers', e.header], value: e.to }];
    return [actor.auth!.file, { path: [...actor.auth!.yamlPath, 'key'], value: e.to }];
  }
  const op = project.operations.get(e.operation)!;
  if (e.kind === 'actor') return [op.file, { path: [...op.yamlPath, 'actor'], value: e.to }];
  if (e.kind === 'expect_status') {
    // a single status written as a scalar stays a scalar
    const list = Array.isArray(op.raw.expect_status) || e.to.length > 1;
    return [op.file, { path: [...op.yamlPath, 'expect_status'], value: list ? e.to : e.to[0] }];
  }
  if (e.kind === 'body') return [op.file, { path: [...op.yamlPath, 'body'], value: e.value }];
  if (e.kind === 'body_field') return [op.file, { path: [...op.yamlPath, 'body', ...e.field.split('.')], value: e.value }];
  if (e.kind === 'query_param') return [op.file, { path: [...op.yamlPath, 'query_params', e.name], value: e.value }];
  if (e.kind === 'path_ref') return [op.file, { path: [...op.yamlPath, 'path'], value: paths.get(op.id)! }];
  if (e.kind === 'depends_on') return [op.file, { path: [...op.yamlPath, 'depends_on'], value: e.to, append: true }];
  if (e.kind === 'force') return [op.file, { path: [...op.yamlPath, 'force'], value: true }];
  const spec = op.extract.find((x) => x.name === e.name);
  const value = e.source ? { path: e.to, source: e.source } : e.to;
  if (!spec) return [op.file, { path: [...op.yamlPath, 'extract', e.name], value }];
  return [spec.file, { path: spec.yamlPath, value: e.to, extract: true }];
}

/**
 * A proposed login: a new actor file (never over an existing one), the pattern that loads
 * it, and the <SET_VIA_--var> username in the default environment. No credential is written:
 * the password or token is a secret the user gives.
 */
async function writeLogin(project: Project, e: Extract<Edit, { kind: 'login' }>): Promise<string[]> {
  const written: string[] = [];
  const file = path.join(project.dir, 'actors', `${e.actor}.yaml`);
  const auth =
    e.scheme === 'basic'
      ? ['  strategy: basic', `  username: "{{env.${e.variable}}}"`, `  password: !secret ${e.secret}`]
      : ['  strategy: bearer', `  token: "{{secret.${e.secret}}}"`];
  const text = [
    `# proposed by flow calibrate: the API answered 401 asking for ${e.scheme === 'basic' ? 'HTTP Basic' : 'a Bearer token'}`,
    `name: ${e.actor}`,
    'auth:',
    ...auth,
    '',
  ].join('\n');
  // never over a file of the user's (the actor may be there, not yet imported: lint says so)
  if (!existsSync(file)) {
    writeProjectFile(project.dir, file, text);
    written.push(file);
  }
  if (e.pattern && (await editYamlFile(project.dir, project.rootFile, (doc) => addImport(doc, e.pattern!)))) written.push(project.rootFile);
  const env = project.environments.get(project.defaultEnvironment ?? '') ?? [...project.environments.values()][0];
  if (e.variable && env && !Object.hasOwn(env.variables, e.variable)) {
    const changed = await editYamlFile(project.dir, env.file, (doc) => {
      doc.setIn([...env.yamlPath, 'variables', e.variable!], SET_VIA_VAR);
    });
    if (changed) written.push(env.file);
  }
  return written;
}

/** `value` added to the sequence at `at`, unless it is there; a scalar written there (a lint warning) becomes its first item. */
function appendTo(doc: Document.Parsed, at: YamlPath, value: unknown): void {
  const node = doc.getIn(at, true);
  if (isSeq(node)) {
    if (!node.items.some((i) => (isScalar(i) ? i.value : i) === value)) node.add(value);
    return;
  }
  const first = isScalar(node) && node.value !== null && node.value !== '' ? [node.value] : [];
  doc.setIn(at, doc.createNode([...first.filter((v) => v !== value), value]));
}

function addImport(doc: Document.Parsed, pattern: string): boolean {
  const imports = doc.get('imports');
  if (isSeq(imports)) {
    if (imports.items.some((i) => (isScalar(i) ? i.value : i) === pattern)) return false;
    imports.add(pattern);
  } else if (imports === undefined) doc.set('imports', [pattern]);
  else return false;
  return true;
}
