// A project as plain values, from emitted documents or from files on disk, for the checks.
// The checks read values and paths only, so they run the same on our output and on a
// project someone else (an LLM) wrote (`flow import --check`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Document } from 'yaml';
import { loadProject } from '../../project/index.js';
import { MAX_ALIAS_COUNT, parseYaml } from '../../project/yaml.js';
import type { EmittedFile, EmittedKind } from '../emit/files.js';
import { docText } from '../emit/files.js';

export interface ViewFile {
  /** relative path, `/`-separated */
  path: string;
  kind: EmittedKind;
  value: Record<string, unknown>;
  text: string;
}

export interface ProjectView {
  files: ViewFile[];
  environments: Array<{ file: ViewFile; id: string; variables: Record<string, unknown> }>;
  actors: Map<string, { file: ViewFile; value: Record<string, unknown> }>;
  resources: Map<string, { file: ViewFile; value: Record<string, unknown> }>;
  /** `<resource>.<operation>` -> the operation map */
  operations: Map<string, { file: ViewFile; resource: string; name: string; value: Record<string, unknown> }>;
}

const asMap = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function stem(p: string): string {
  return path.basename(p).replace(/\.ya?ml$/, '');
}

export function viewOf(files: ViewFile[]): ProjectView {
  const view: ProjectView = { files, environments: [], actors: new Map(), resources: new Map(), operations: new Map() };
  for (const f of files) {
    const id = typeof f.value.name === 'string' ? f.value.name : stem(f.path);
    if (f.kind === 'environment') view.environments.push({ file: f, id, variables: asMap(f.value.variables) });
    if (f.kind === 'actor') view.actors.set(id, { file: f, value: f.value });
    if (f.kind === 'resource') {
      view.resources.set(id, { file: f, value: f.value });
      for (const [name, op] of Object.entries(asMap(f.value.operations))) view.operations.set(`${id}.${name}`, { file: f, resource: id, name, value: asMap(op) });
    }
    if (f.kind === 'root') {
      // Inline projects (spec 2.2): environment/actors/resources maps in flow.yaml.
      const env = asMap(f.value.environment);
      if (Object.keys(env).length) view.environments.push({ file: f, id: typeof env.name === 'string' ? env.name : 'default', variables: asMap(env.variables) });
      for (const [aid, a] of Object.entries(asMap(f.value.actors))) view.actors.set(aid, { file: f, value: asMap(a) });
      for (const [rid, r] of Object.entries(asMap(f.value.resources))) {
        view.resources.set(rid, { file: f, value: asMap(r) });
        for (const [name, op] of Object.entries(asMap(asMap(r).operations))) view.operations.set(`${rid}.${name}`, { file: f, resource: rid, name, value: asMap(op) });
      }
    }
  }
  return view;
}

export function viewOfEmitted(files: EmittedFile[]): ProjectView {
  return viewOf(files.map((f) => ({ path: f.path, kind: f.kind, value: asMap(toJs(f.doc)), text: docText(f.doc) })));
}

function toJs(doc: Document): unknown {
  return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}

/** The files of a project directory, as the loader finds them (root and its imports). */
export async function viewOfDirectory(dir: string): Promise<{ view: ProjectView; diagnostics: Array<{ code: string; severity: string; message: string; file: string; line: number }> }> {
  const project = await loadProject(dir);
  const files: ViewFile[] = [];
  for (const f of project.files) {
    if (f.kind === 'discarded') continue;
    const text = await readFile(f.path, 'utf8').catch(() => '');
    const parsed = parseYaml(text, f.path);
    files.push({ path: path.relative(project.dir, f.path).split(path.sep).join('/'), kind: f.kind, value: asMap(parsed.value), text });
  }
  return { view: viewOf(files), diagnostics: project.diagnostics };
}
