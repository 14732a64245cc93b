// `flow lint --fix`: the safe fixes, applied to the files in place (docs/format.md#r7: comments, order and
// every other value kept). A scalar depends_on/assert becomes a sequence; a path in baseUrl
// moves into every operation path; a plaintext credential becomes a `!secret`. The credential
// itself is never printed: the fix names the secret to set.
import { isNode, isScalar, isSeq, YAMLSeq, type Document } from 'yaml';
import {
  editedText,
  isCredentialName,
  isSecretRef,
  type Project,
  readForEdit,
  scalarText,
  secretRef,
  SET_VIA_VAR,
  type SourceFile,
  unique,
  upperSnake,
  writeProjectFile,
  type YamlPath,
} from '../../project/index.js';
import { plaintextSecrets } from '../rules/plaintext-secret.js';

interface Fix {
  code: 'FIX_SEQUENCE' | 'FIX_BASEURL_PATH' | 'FIX_SECRET';
  file: string;
  message: string;
}

export interface FixResult {
  /** absolute paths of the files rewritten */
  changedFiles: string[];
  fixes: Fix[];
}

class Edits {
  readonly fixes: Fix[] = [];
  private readonly dirty = new Set<SourceFile>();
  private readonly byPath: Map<string, SourceFile>;

  constructor(private readonly project: Project) {
    this.byPath = new Map(project.files.map((f) => [f.path, f]));
  }

  doc(file: string): Document | undefined {
    return this.byPath.get(file)?.doc;
  }

  set(file: string, path: YamlPath, value: unknown, fix: Fix): void {
    const doc = this.doc(file);
    if (!doc) return;
    const node = doc.getIn(path, true);
    const created = isNode(value) ? value : doc.createNode(value);
    // Keep a comment written on the old value.
    if (isScalar(node) && node.comment && isScalar(created)) created.comment = node.comment;
    doc.setIn(path, created);
    this.dirty.add(this.byPath.get(file)!);
    this.fixes.push(fix);
  }

  async write(): Promise<string[]> {
    const out: string[] = [];
    for (const f of this.dirty) {
      writeProjectFile(this.project.dir, f.path, editedText(readForEdit(this.project.dir, f.path), f.doc!));
      out.push(f.path);
    }
    return out;
  }
}

export async function fixProject(project: Project): Promise<FixResult> {
  const edits = new Edits(project);
  fixSequences(project, edits);
  fixBaseUrl(project, edits);
  fixSecrets(project, edits);
  return { changedFiles: await edits.write(), fixes: edits.fixes };
}

function fixSequences(project: Project, edits: Edits): void {
  for (const op of project.operations.values()) {
    for (const key of ['depends_on', 'assert']) {
      const path = [...op.yamlPath, key];
      const node = edits.doc(op.file)?.getIn(path, true);
      if (!node || isSeq(node) || !isScalar(node) || node.value === null || node.value === '') continue;
      // The scalar node itself moves into the sequence: its quoting and comment stay.
      const seq = new YAMLSeq();
      seq.items.push(node);
      edits.set(op.file, path, seq, { code: 'FIX_SEQUENCE', file: op.file, message: `${op.id}: ${key} made a sequence` });
    }
  }
}

function fixBaseUrl(project: Project, edits: Edits): void {
  const prefixes = new Set<string>();
  for (const env of project.environments.values()) {
    const base = env.variables.baseUrl;
    if (typeof base !== 'string' || base.includes('{{')) continue;
    const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)(\/[^?#]*?)\/*$/i.exec(base);
    if (!m || m[2] === '' || m[2] === '/') continue;
    prefixes.add(m[2]);
  }
  if (prefixes.size !== 1) return; // none, or environments disagree: not safe to move
  const [prefix] = prefixes;
  const withPath = [...project.environments.values()].filter((e) => typeof e.variables.baseUrl === 'string' && !String(e.variables.baseUrl).includes('{{'));
  if (withPath.some((e) => !scalarText(e.variables.baseUrl).replace(/\/+$/, '').endsWith(prefix))) return;
  for (const e of withPath) {
    const origin = scalarText(e.variables.baseUrl).replace(/\/+$/, '').slice(0, -prefix.length);
    edits.set(e.file, [...e.yamlPath, 'variables', 'baseUrl'], origin, {
      code: 'FIX_BASEURL_PATH',
      file: e.file,
      message: `baseUrl stops at the host: "${prefix}" moved into the operation paths`,
    });
  }
  const prepend = (file: string, path: YamlPath, value: string, what: string): void => {
    if (value.startsWith(`${prefix}/`) || value === prefix) return;
    edits.set(file, path, `${prefix}${value.startsWith('/') ? '' : '/'}${value}`, {
      code: 'FIX_BASEURL_PATH',
      file,
      message: `${what}: path now starts with ${prefix}`,
    });
  };
  for (const op of project.operations.values()) prepend(op.file, [...op.yamlPath, 'path'], op.path, op.id);
  for (const actor of project.actors.values()) {
    const requests = [actor.auth?.login, ...(actor.auth?.steps ?? []), actor.session?.refresh].filter((r) => r !== undefined);
    for (const r of requests) prepend(r.file, [...r.yamlPath, 'path'], r.path, `actor ${actor.id}`);
  }
}

function fixSecrets(project: Project, edits: Edits): void {
  const plain = (v: unknown): v is string => typeof v === 'string' && v !== '' && v !== SET_VIA_VAR && !v.includes('{{') && !isSecretRef(v);
  for (const env of project.environments.values()) {
    for (const [name, value] of Object.entries(env.variables)) {
      if (!isCredentialName(name) || !plain(value)) continue;
      const secret = upperSnake(name);
      edits.set(env.file, [...env.yamlPath, 'variables', name], secretRef(secret), {
        code: 'FIX_SECRET',
        file: env.file,
        message: `variable ${name} is now !secret ${secret}: store its value with \`flow secret set ${secret}\``,
      });
    }
  }
  // In an actor's auth, exactly what W_PLAINTEXT_SECRET reports (nested login bodies and
  // chain steps included): the lint rule's own walk, so fix and warning cannot disagree.
  const found = [...plaintextSecrets(project)];
  for (const actor of project.actors.values()) {
    const auth = actor.auth;
    if (!auth) continue;
    const used = new Set<string>();
    for (const { file, yamlPath } of found) {
      if (file !== auth.file || !auth.yamlPath.every((k, i) => yamlPath[i] === k)) continue;
      const inner = yamlPath.slice(auth.yamlPath.length);
      const key = String(inner.at(-1));
      // `<actor>_<key>` as before; a second credential with that key in the same auth (auth.password
      // and auth.body.password) takes its whole path, so two values never share one secret.
      let secret = upperSnake(`${actor.id}_${key}`);
      if (used.has(secret)) secret = unique(upperSnake(`${actor.id}_${inner.join('_')}`), used);
      used.add(secret);
      const where = `auth${inner.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}`;
      edits.set(auth.file, yamlPath, secretRef(secret), {
        code: 'FIX_SECRET',
        file: auth.file,
        message: `actor ${actor.id}: ${where} is now !secret ${secret}: store its value with \`flow secret set ${secret}\``,
      });
    }
  }
}
