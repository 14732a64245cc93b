// A project as plain values, from emitted documents or from files on disk, for the checks.
// The checks read values and paths only, so they run the same on our output and on a
// project someone else (an LLM) wrote (`flow import --check`).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadProject, parseYaml, type Project } from '../../project/index.js';
import { docText, docValue, type EmittedFile, type EmittedKind } from '../emit/files.js';
import { obj } from '../observed.js';

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

function stem(p: string): string {
  return path.basename(p).replace(/\.ya?ml$/, '');
}

export function viewOf(files: ViewFile[]): ProjectView {
  const view: ProjectView = { files, environments: [], actors: new Map(), resources: new Map(), operations: new Map() };
  for (const f of files) {
    const id = typeof f.value.name === 'string' ? f.value.name : stem(f.path);
    if (f.kind === 'environment') view.environments.push({ file: f, id, variables: obj(f.value.variables) });
    if (f.kind === 'actor') view.actors.set(id, { file: f, value: f.value });
    if (f.kind === 'resource') {
      view.resources.set(id, { file: f, value: f.value });
      for (const [name, op] of Object.entries(obj(f.value.operations))) view.operations.set(`${id}.${name}`, { file: f, resource: id, name, value: obj(op) });
    }
    if (f.kind === 'root') {
      // Inline projects (docs/format.md#the-root-file): environment/actors/resources maps in flow.yaml.
      const env = obj(f.value.environment);
      if (Object.keys(env).length) view.environments.push({ file: f, id: typeof env.name === 'string' ? env.name : 'default', variables: obj(env.variables) });
      for (const [aid, a] of Object.entries(obj(f.value.actors))) view.actors.set(aid, { file: f, value: obj(a) });
      for (const [rid, r] of Object.entries(obj(f.value.resources))) {
        view.resources.set(rid, { file: f, value: obj(r) });
        for (const [name, op] of Object.entries(obj(obj(r).operations)))
          view.operations.set(`${rid}.${name}`, { file: f, resource: rid, name, value: obj(op) });
      }
    }
  }
  return view;
}

export function viewOfEmitted(files: EmittedFile[]): ProjectView {
  return viewOf(files.map((f) => ({ path: f.path, kind: f.kind, value: obj(docValue(f.doc)), text: docText(f.doc) })));
}

/** The files of a project directory, as the loader finds them (root and its imports), and the loaded project (for lint). */
export async function viewOfDirectory(dir: string): Promise<{ view: ProjectView; project: Project }> {
  const project = await loadProject(dir);
  const files: ViewFile[] = [];
  for (const f of project.files) {
    if (f.kind === 'discarded') continue;
    const text = await readFile(f.path, 'utf8').catch(() => '');
    // The loader's value; parsed here only when the loader refused the file (too large, binary).
    const value = f.value !== undefined ? f.value : parseYaml(text, f.path).value;
    files.push({ path: path.relative(project.dir, f.path).split(path.sep).join('/'), kind: f.kind, value: obj(value), text });
  }
  return { view: viewOf(files), project };
}

/**
 * Files someone else wrote (an answer to --check, a model's answer to --llm) written to a
 * scratch directory and viewed as a project there; the directory is removed after `use`.
 */
export async function withScratchProject<T>(
  files: ReadonlyArray<{ path: string; text: string }>,
  use: (opened: { view: ProjectView; project: Project; dir: string }) => T | Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-answer-'));
  try {
    for (const f of files) {
      const target = path.join(dir, ...f.path.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, f.text, 'utf8');
    }
    return await use({ ...(await viewOfDirectory(dir)), dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
