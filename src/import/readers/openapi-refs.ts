// `$ref` resolution for OpenAPI descriptions, written here rather than left to
// json-schema-ref-parser because the importer needs three things that library does not give:
// - a `$ref` is followed only where the specification allows a Reference Object: never inside
//   literal data (`example`, `examples.*.value`, `default`, `const`, `enum`, extensions), which
//   the library crawls and tries to fetch;
// - a remote (`http(s)://`, any URI scheme) reference is never fetched: an untrusted
//   description must not make the importer call out;
// - one reference that cannot be resolved costs only what needs it: it becomes a marker object,
//   and the reader blocks the operations that reach it (an open question each).
// Local pointers and relative files are resolved; circular schemas become shared objects, as
// the library did, so a 4 MB description with shared schemas is resolved once per target.
import path from 'node:path';
import { load as loadYaml, JSON_SCHEMA } from 'js-yaml';
import { FlowError } from '../../errors.js';
import { readRegularText } from '../../limits/index.js';
import { MAX_INPUT_BYTES } from './types.js';

type Obj = Record<string, unknown>;
type Segments = Array<string | number>;

export interface RefProblem {
  /** the `$ref` as written */
  ref: string;
  /** why it was not resolved */
  reason: string;
  /** the file (absolute) and JSON pointer segments where the `$ref` sits */
  file: string;
  at: Segments;
}

/** Nesting of the resolved description, references followed (a real one stays under 100). */
const MAX_RESOLVED_DEPTH = 200;

/** Keys whose value is literal data: a `$ref` inside is a value, not a reference. */
const LITERAL_KEYS = new Set(['example', 'default', 'const', 'enum']);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parse one description file, JSON or YAML. js-yaml rather than the `yaml` package the project
 * files use: descriptions are read as data, not edited, and js-yaml reads a 4 MB one several
 * times faster with less garbage. The JSON schema: no dates, no YAML 1.1 booleans (`on`).
 */
export function parseDescription(text: string): unknown {
  return loadYaml(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, { schema: JSON_SCHEMA, json: true });
}

export interface Resolved {
  root: Obj;
  problems: RefProblem[];
  /** the problems a value reaches (an unresolved reference somewhere inside it) */
  problemsIn(value: unknown): RefProblem[];
  /**
   * The named definition a resolved value is (`#/components/schemas/userSchema`; in another file,
   * `common.yaml#/User`, relative to the description): every reference to one place resolves to
   * one object, so two answers that name it are found to be the same.
   */
  nameOf(value: unknown): string | undefined;
}

/** Resolve every Reference Object of the description at `file` (absolute), whose root is given. */
export async function resolveRefs(file: string, root: unknown, isSwagger2: boolean): Promise<Resolved> {
  const docs = new Map<string, unknown>([[file, root]]);
  const unreadable = new Map<string, string>();
  await loadReferencedFiles(file, root, isSwagger2, docs, unreadable);
  const r = new Resolver(docs, unreadable, isSwagger2, file);
  const out = r.walk(root, file, [], false);
  return { root: isObj(out) ? out : {}, problems: r.problems, problemsIn: (v) => r.problemsIn(v), nameOf: (v) => (isObj(v) ? r.names.get(v) : undefined) };
}

/** `./common.yaml#/X` -> the absolute file; undefined for a local or a remote reference. */
function fileOf(ref: string, from: string): string | undefined {
  const hash = ref.indexOf('#');
  const part = hash < 0 ? ref : ref.slice(0, hash);
  if (!part || isRemote(part)) return undefined;
  return path.resolve(path.dirname(from), decodeURI(part));
}

/** Any URI with a scheme (`https:`, `urn:`), but not a Windows drive letter. */
function isRemote(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(ref);
}

/** Every `$ref` string of a document in a place where it is a reference (literal data skipped). */
function* refsOf(value: unknown, isSwagger2: boolean): Generator<string> {
  const stack: Array<{ v: unknown; at: Segments }> = [{ v: value, at: [] }];
  while (stack.length) {
    const { v, at } = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, at: [...at, i] }));
    else if (isObj(v)) {
      if (typeof v.$ref === 'string') yield v.$ref;
      for (const [k, x] of Object.entries(v)) if (!isLiteral(k, x, at, isSwagger2)) stack.push({ v: x, at: [...at, k] });
    }
  }
}

/** True when the value under `key` (of the object at `at`) is literal data. */
function isLiteral(key: string, value: unknown, at: Segments, isSwagger2: boolean): boolean {
  if (LITERAL_KEYS.has(key) || key.startsWith('x-')) return true;
  // JSON Schema `examples` is a list of values; Swagger 2's `examples` maps media types to values.
  if (key === 'examples' && (Array.isArray(value) || isSwagger2)) return true;
  // OAS 3 Example Object: `examples.<name>.value`
  return key === 'value' && at[at.length - 2] === 'examples';
}

async function loadReferencedFiles(
  file: string,
  doc: unknown,
  isSwagger2: boolean,
  docs: Map<string, unknown>,
  unreadable: Map<string, string>,
): Promise<void> {
  for (const ref of refsOf(doc, isSwagger2)) {
    const target = fileOf(ref, file);
    if (!target || docs.has(target) || unreadable.has(target)) continue;
    try {
      const parsed = parseDescription(await readRegularText(target, { maxBytes: MAX_INPUT_BYTES, code: 'E_IMPORT_INPUT', shown: path.basename(target) }));
      docs.set(target, parsed);
      await loadReferencedFiles(target, parsed, isSwagger2, docs, unreadable);
    } catch (err) {
      const why = err instanceof FlowError ? String(err.details?.reason) : ((err as NodeJS.ErrnoException).code ?? (err as Error).message.split('\n')[0]);
      unreadable.set(target, why);
    }
  }
}

class Resolver {
  readonly problems: RefProblem[] = [];
  /** how deep the walk is in the resolved document (references followed) */
  private depth = 0;
  private readonly done = new Map<string, unknown>();
  private readonly inProgress = new Set<string>();
  private readonly markers = new WeakMap<object, RefProblem>();
  private readonly reach = new WeakMap<object, RefProblem[]>();
  private readonly byPlace = new Map<string, Obj>();
  /** each resolved target object -> the place it was read from (`#/components/schemas/X`) */
  readonly names = new WeakMap<object, string>();

  constructor(
    private readonly docs: Map<string, unknown>,
    private readonly unreadable: Map<string, string>,
    private readonly isSwagger2: boolean,
    /** the description itself: a place in it is named by its pointer alone */
    private readonly rootFile: string,
  ) {}

  walk(value: unknown, file: string, at: Segments, literal: boolean): unknown {
    if (literal || (!Array.isArray(value) && !isObj(value))) return value;
    this.depth++;
    try {
      if (Array.isArray(value)) return value.map((x, i) => this.walk(x, file, [...at, i], false));
      if (typeof value.$ref === 'string') {
        // Each file nests at most MAX_DOCUMENT_DEPTH levels, but a chain of references (S0 ->
        // S1 -> … S9999) nests without end once followed: this walk and every reader after it
        // would overflow the stack.
        if (this.depth > MAX_RESOLVED_DEPTH)
          return this.marker({ ref: value.$ref, reason: `nested deeper than ${MAX_RESOLVED_DEPTH} levels once its references are followed`, file, at });
        return this.reference(value, file, at);
      }
      const out: Obj = {};
      for (const [k, x] of Object.entries(value)) out[k] = this.walk(x, file, [...at, k], isLiteral(k, x, at, this.isSwagger2));
      return out;
    } finally {
      this.depth--;
    }
  }

  /** A Reference Object: its target, with the siblings the object states (3.1) applied. */
  private reference(value: Obj, file: string, at: Segments): unknown {
    const { $ref, ...siblings } = value;
    const target = this.target(String($ref), file, at);
    if (!Object.keys(siblings).length || this.markers.has(target as object) || !isObj(target)) return target;
    const rest = this.walk(siblings, file, at, false) as Obj;
    const onlyNotes = Object.keys(rest).every((k) => k === 'summary' || k === 'description');
    // A schema beside its $ref states more constraints (JSON Schema 2020-12: both apply); a
    // summary or description overrides the target's (OAS 3.1 Reference Object), as do a path
    // item's own operations.
    if (!onlyNotes && looksLikeSchema(target)) return { ...rest, allOf: [target, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
    const out = { ...target, ...rest };
    // a description beside the reference leaves it the same definition
    const name = onlyNotes ? this.names.get(target) : undefined;
    if (name) this.names.set(out, name);
    return out;
  }

  private target(ref: string, file: string, at: Segments): unknown {
    const hash = ref.indexOf('#');
    const part = hash < 0 ? ref : ref.slice(0, hash);
    if (part && isRemote(part)) return this.marker({ ref, reason: 'a remote reference, never fetched (an import reaches no network)', file, at });
    const targetFile = part ? fileOf(ref, file)! : file;
    const key = `${targetFile}#${hash < 0 ? '' : ref.slice(hash + 1)}`;
    if (this.done.has(key)) return this.done.get(key);
    const doc = this.docs.get(targetFile);
    if (doc === undefined) return this.marker({ ref, reason: `its file cannot be read (${this.unreadable.get(targetFile) ?? 'not found'})`, file, at });
    const segments = hash < 0 ? [] : decodePointer(ref.slice(hash + 1));
    if (!segments) return this.marker({ ref, reason: 'not a JSON pointer', file, at });
    let raw: unknown = doc;
    for (const s of segments) {
      raw = Array.isArray(raw) ? raw[Number(s)] : isObj(raw) ? raw[s] : undefined;
      if (raw === undefined) return this.marker({ ref, reason: `nothing is at ${ref.slice(hash)}`, file, at });
    }
    if (this.inProgress.has(key)) return this.marker({ ref, reason: 'a chain of references that leads back to itself', file, at });
    if (isObj(raw) && typeof raw.$ref !== 'string') {
      // Registered before its contents are walked: a circular schema points back at this object.
      const out: Obj = {};
      this.done.set(key, out);
      const place = targetFile === this.rootFile ? '' : path.relative(path.dirname(this.rootFile), targetFile).split(path.sep).join('/');
      this.names.set(out, `${place}#${hash < 0 ? '' : ref.slice(hash + 1)}`);
      for (const [k, x] of Object.entries(raw)) out[k] = this.walk(x, targetFile, [...segments, k], isLiteral(k, x, segments, this.isSwagger2));
      return out;
    }
    this.inProgress.add(key);
    const out = this.walk(raw, targetFile, segments, segments.length > 0 && isLiteral(String(segments.at(-1)), raw, segments.slice(0, -1), this.isSwagger2));
    this.inProgress.delete(key);
    this.done.set(key, out);
    return out;
  }

  private marker(problem: RefProblem): Obj {
    // The same $ref is met from the document's walk and from each reference to its place: one problem.
    const key = `${problem.file}#${problem.at.join('/')}`;
    const known = this.byPlace.get(key);
    if (known) return known;
    const m = { 'x-unresolved-ref': problem.ref };
    this.byPlace.set(key, m);
    this.markers.set(m, problem);
    this.problems.push(problem);
    return m;
  }

  problemsIn(value: unknown): RefProblem[] {
    if (!this.problems.length) return [];
    const found = new Set<RefProblem>();
    const seen = new Set<object>();
    const stack: unknown[] = [value];
    while (stack.length) {
      const v = stack.pop();
      if (typeof v !== 'object' || v === null || seen.has(v)) continue;
      seen.add(v);
      const p = this.markers.get(v);
      if (p) found.add(p);
      const known = this.reach.get(v);
      if (known) {
        for (const k of known) found.add(k);
        continue;
      }
      stack.push(...(Array.isArray(v) ? v : Object.values(v)));
    }
    const out = [...found];
    if (isObj(value) || Array.isArray(value)) this.reach.set(value as object, out);
    return out;
  }
}

function looksLikeSchema(v: Obj): boolean {
  return ['type', 'properties', 'items', 'allOf', 'anyOf', 'oneOf', 'enum', 'additionalProperties', 'format'].some((k) => k in v);
}

/** `/components/schemas/A~1B` -> ['components', 'schemas', 'A/B']; undefined when not a pointer. */
function decodePointer(fragment: string): string[] | undefined {
  let f: string;
  try {
    f = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (f === '') return [];
  if (!f.startsWith('/')) return undefined;
  return f
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
