// `--into` (docs/format.md#r7): an import edits an existing project in place. Existing files keep their
// comments, key order and every value a user wrote; only what is missing is added: new
// operations, new keys of existing operations, new variables, new actor and resource files.
// Files are read and written through src/project/write.ts: regular files inside the project,
// no link followed, each replaced atomically.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isMap, parseDocument, type Document, type YAMLMap } from 'yaml';
import { checkWritable, editedText, readForEdit, scalarText, writeProjectFile, YAML_TAGS } from '../../project/index.js';
import { IMPORT_CODES, importError } from '../errors.js';
import { parsePath, shapeOf } from '../infer/paths.js';
import { docText, docValue, ROOT_FILE, type EmittedFile } from './files.js';

export interface IntoReport {
  /** files created (relative) */
  created: string[];
  /** files edited in place (relative) */
  edited: string[];
  /** what was added, one line each (`resources/pets.yaml: operation pet.create`) */
  added: string[];
  /** what was left as the user wrote it although the import differs */
  kept: string[];
}

interface Existing {
  rel: string;
  /** the file as read, for minimal edits */
  text: string;
  doc: Document.Parsed;
  dirty: boolean;
}

const DIRS = ['environments', 'actors', 'resources'] as const;

async function readExisting(dir: string): Promise<Map<string, Existing>> {
  const out = new Map<string, Existing>();
  const read = async (rel: string): Promise<void> => {
    const text = readForEdit(dir, path.join(dir, rel));
    const doc = parseDocument(text, { customTags: YAML_TAGS });
    if (doc.errors.length) throw importError(IMPORT_CODES.into, `${rel}: cannot edit a file with YAML errors (${doc.errors[0].message.split('\n')[0]})`, rel);
    out.set(rel, { rel, text, doc, dirty: false });
  };
  try {
    await read(ROOT_FILE);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === IMPORT_CODES.into || (code?.startsWith('E_WRITE_') && code !== 'E_WRITE_FAILED')) throw err;
    throw importError(IMPORT_CODES.into, `${dir} has no ${ROOT_FILE}: --into needs an existing project (use --out for a new one)`, dir);
  }
  for (const d of DIRS) {
    // A linked folder is not listed (writeProjectFile would refuse to write through it anyway).
    const isDir = await lstat(path.join(dir, d)).then(
      (s) => s.isDirectory(),
      () => false,
    );
    const names = isDir ? await readdir(path.join(dir, d)) : [];
    for (const n of names.sort()) if (/\.ya?ml$/.test(n)) await read(`${d}/${n}`);
  }
  return out;
}

function idOf(e: Existing): string {
  const name = e.doc.get('name');
  return typeof name === 'string' ? name : path.basename(e.rel).replace(/\.ya?ml$/, '');
}

/** Add the keys of `value` that `map` lacks; recurse into maps both have. Returns what was added. */
function addMissing(doc: Document, at: Array<string | number>, value: Record<string, unknown>, added: string[], label: string): void {
  for (const [k, v] of Object.entries(value)) {
    const here = [...at, k];
    if (!doc.hasIn(here)) {
      doc.setIn(here, doc.createNode(v));
      added.push(`${label}.${k}`);
      continue;
    }
    const node = doc.getIn(here, true);
    if (isMap(node) && typeof v === 'object' && v !== null && !Array.isArray(v) && !('__reqflow' in v))
      addMissing(doc, here, v as Record<string, unknown>, added, `${label}.${k}`);
  }
}

/**
 * The files are computed first and written at the end, each atomically: a refused target
 * (a link, a FIFO, a name too long) is found before anything is written.
 */
export async function importInto(files: EmittedFile[], dir: string): Promise<IntoReport> {
  const existing = await readExisting(dir);
  const pending: Array<{ rel: string; text: string }> = [];
  const report: IntoReport = { created: [], edited: [], added: [], kept: [] };
  const byKindId = new Map<string, Existing>();
  for (const e of existing.values()) {
    const kind = e.rel === ROOT_FILE ? 'root' : e.rel.split('/')[0];
    byKindId.set(`${kind}:${idOf(e)}`, e);
  }
  const root = existing.get(ROOT_FILE)!;
  for (const f of files) {
    const value = docValue(f.doc) as Record<string, unknown>;
    if (f.kind === 'root') {
      mergeImports(root, value, report);
      continue;
    }
    const dirName = f.path.split('/')[0];
    const target = byKindId.get(`${dirName}:${f.id}`);
    if (!target) {
      let rel = f.path;
      for (let i = 2; existing.has(rel); i++) rel = f.path.replace(/\.yaml$/, `_${i}.yaml`);
      const text = docText(f.doc);
      pending.push({ rel, text });
      existing.set(rel, { rel, text, doc: f.doc as Document.Parsed, dirty: false });
      report.created.push(rel);
      continue;
    }
    const added: string[] = [];
    if (f.kind === 'resource') mergeResource(target, value, added, report);
    else addMissing(target.doc, [], value, added, `${f.kind} ${f.id}`);
    if (added.length) {
      target.dirty = true;
      report.added.push(...added.map((a) => `${target.rel}: ${a}`));
    }
  }
  for (const e of existing.values()) {
    if (!e.dirty) continue;
    pending.push({ rel: e.rel, text: editedText(e.text, e.doc) });
    report.edited.push(e.rel);
  }
  const abs = (rel: string): string => path.join(dir, ...rel.split('/'));
  checkWritable(
    dir,
    pending.map((p) => abs(p.rel)),
  );
  for (const p of pending) writeProjectFile(dir, abs(p.rel), p.text);
  return report;
}

function mergeImports(root: Existing, value: Record<string, unknown>, report: IntoReport): void {
  const imports = root.doc.get('imports', true);
  if (!imports) {
    if (root.doc.get('resources') || root.doc.get('actors')) {
      report.kept.push(`${ROOT_FILE}: an inline project (no imports); the imported files are written beside it and listed under imports`);
    }
    root.doc.set('imports', root.doc.createNode(value.imports));
    root.dirty = true;
    report.added.push(`${ROOT_FILE}: imports`);
    return;
  }
  const have = new Set((root.doc.toJS().imports as unknown[] | undefined)?.map(String) ?? []);
  for (const p of (value.imports as string[]) ?? []) {
    if (have.has(p)) continue;
    root.doc.addIn(['imports'], p);
    root.dirty = true;
    report.added.push(`${ROOT_FILE}: imports ${p}`);
  }
}

/** New operations are added; an operation the user has (same name, or same method and path) is kept, missing keys added. */
function mergeResource(target: Existing, value: Record<string, unknown>, added: string[], report: IntoReport): void {
  const ops = (value.operations ?? {}) as Record<string, Record<string, unknown>>;
  const theirs = target.doc.get('operations', true) as YAMLMap | undefined;
  const current = ((docValue(target.doc) as { operations?: unknown }).operations ?? {}) as Record<string, Record<string, unknown>>;
  const shapes = new Map(
    Object.entries(current).map(([n, o]) => [`${scalarText(o.method, 'GET').toUpperCase()} ${shapeOf(parsePath(scalarText(o.path)))}`, n]),
  );
  for (const [name, op] of Object.entries(ops)) {
    const sameShape = shapes.get(`${String(op.method).toUpperCase()} ${shapeOf(parsePath(String(op.path)))}`);
    const mine = name in current ? name : sameShape;
    if (!theirs || !mine) {
      if (name in current) continue;
      target.doc.setIn(['operations', name], target.doc.createNode(op));
      added.push(`operation ${name}`);
      continue;
    }
    if (mine !== name) report.kept.push(`${target.rel}: ${mine} is the user's name for the imported ${name}`);
    // The user's operation stays theirs: no `_provenance: ai_import` is put on it.
    const { _provenance: _p, ...keys } = op;
    void _p;
    addMissing(target.doc, ['operations', mine], keys, added, `operation ${mine}`);
  }
}
