// Loading a project directory into the model (docs/format.md#layout to #resources, #limits,
// #versions). Never throws and never hangs: every problem becomes a coded diagnostic with
// file:line:col in `project.diagnostics`.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { buildActor } from './build/actor.js';
import { buildEnvironment } from './build/environment.js';
import { locatorFor, type Locator } from './build/origin.js';
import { buildResource } from './build/resource.js';
import { asInt, asMap, asString, asText, type RawMap } from './build/values.js';
import { diag, diagAt } from './diagnostics.js';
import { expandImports, LAYOUT_DIRS } from './imports.js';
import { realProjectDirSync } from './project-path.js';
import { readProjectFile } from './read.js';
import type { FileKind, Loc, Project, YamlPath } from './types.js';
import { ParseCache, type CacheOptions } from './parse-cache.js';
import { sourceFromText } from './source.js';

export const ROOT_FILE = 'flow.yaml';

export interface LoadOptions {
  /** the parse cache (parse-cache.ts): on unless `{ enabled: false }` */
  cache?: CacheOptions;
}

/**
 * Load the project in `target`: a directory holding `flow.yaml`, or the path of a `flow.yaml`.
 */
export async function loadProject(target: string, options: LoadOptions = {}): Promise<Project> {
  const resolved = path.resolve(target);
  const isRootPath = path.basename(resolved) === ROOT_FILE;
  const dir = isRootPath ? path.dirname(resolved) : resolved;
  const rootFile = path.join(dir, ROOT_FILE);
  const project: Project = {
    dir,
    rootFile,
    name: path.basename(dir),
    imports: [],
    environments: new Map(),
    actors: new Map(),
    resources: new Map(),
    operations: new Map(),
    files: [],
    diagnostics: [],
  };

  const dirProblem = await checkDirectory(dir);
  if (dirProblem) {
    project.diagnostics.push(diag(dirProblem.code, dirProblem.message, dir));
    return project;
  }

  const cache = ParseCache.open(options.cache, process.env, (message) => project.diagnostics.push(diag('W_CACHE_UNSAFE', message, dir)));
  // Every file must lie inside this once its links are resolved (resolved once, here).
  const realDir = realProjectDirSync(dir);
  const root = readSource(rootFile, 'root', project, realDir, cache);
  if (!root) return project;
  project.files.push(root);
  const value = root.value;
  if (value === undefined) return project; // parse error, already reported
  const map = asMap(value);
  if (!map) {
    const what = value === null ? 'empty' : Array.isArray(value) ? 'a sequence' : `a ${typeof value}`;
    project.diagnostics.push(diag('E_ROOT_NOT_MAPPING', `${ROOT_FILE} must be a mapping with at least "version"; it is ${what}`, rootFile));
    return project;
  }
  const at = locatorFor(root);
  readRootKeys(project, map, at);

  // Inline alternative for a very small API (docs/format.md#the-root-file).
  const inlineEnv = asMap(map.environment);
  if (inlineEnv) addEnvironment(project, inlineEnv, rootFile, ['environment'], at, 'default');
  for (const [key, raw] of Object.entries(asMap(map.actors) ?? {})) addEntity(project, 'actor', raw, key, rootFile, ['actors', key], at);
  for (const [key, raw] of Object.entries(asMap(map.resources) ?? {})) addEntity(project, 'resource', raw, key, rootFile, ['resources', key], at);

  await loadImports(project, map, at, realDir, cache);
  return project;
}

async function checkDirectory(dir: string): Promise<{ code: string; message: string } | undefined> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) return { code: 'E_PROJECT_NOT_FOUND', message: `${dir} is not a directory` };
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { code: 'E_PROJECT_NOT_FOUND', message: `project directory ${dir} does not exist` };
    return { code: 'E_PROJECT_NOT_FOUND', message: `project directory ${dir} cannot be read (${code ?? 'error'})` };
  }
}

function readRootKeys(project: Project, map: RawMap, at: Locator): void {
  const version = asInt(map.version);
  if (!('version' in map)) {
    project.diagnostics.push(diagAt('E_SCHEMA_VERSION', '"version" is missing; set version: 1 (1 to 3 are accepted)', at([], false)));
  } else if (version === undefined || version < 1 || version > 3) {
    project.diagnostics.push(
      diagAt('E_SCHEMA_VERSION', `version must be an integer from 1 to 3; it is ${JSON.stringify(map.version)}`, at(['version'], false)),
    );
  } else {
    project.version = version;
  }
  project.name = asText(map.name)?.trim() || project.name;
  project.defaultEnvironment = asText(map.default_environment);
  if (Array.isArray(map.imports)) project.imports = map.imports.filter((p): p is string => typeof p === 'string');
}

async function loadImports(project: Project, map: RawMap, at: Locator, realDir: string, cache: ParseCache | undefined): Promise<void> {
  // docs/format.md#imports-missing: a multi-file project without imports is empty
  if (!Array.isArray(map.imports)) return;
  const patterns: Array<{ pattern: string; loc: Loc }> = [];
  map.imports.forEach((p, i) => {
    if (typeof p === 'string') patterns.push({ pattern: p, loc: at(['imports', i], false) });
  });
  const expansion = await expandImports(project.dir, patterns);
  project.diagnostics.push(...expansion.diagnostics);
  const files = expansion.files.filter((f) => f !== project.rootFile);
  const literal = expansion.importedAt;

  const kinds = files.map((f) => classify(project.dir, f));
  const sources = files.map((file, i) => (kinds[i] === 'discarded' ? undefined : readSource(file, kinds[i], project, realDir, cache, literal.get(file))));
  files.forEach((file, i) => {
    const kind = kinds[i];
    if (kind === 'discarded') {
      project.files.push({ path: file, kind });
      const rel = path.relative(project.dir, file);
      const loc = literal.get(file) ?? { file, line: 1, col: 1 };
      project.diagnostics.push(diagAt('W_FILE_DISCARDED', `${rel} is not directly under actors/, resources/ or environments/: it is not read`, loc));
      return;
    }
    const loaded = sources[i];
    project.files.push(loaded ?? { path: file, kind });
    if (!loaded || loaded.value === undefined) return;
    if (loaded.value === null) {
      project.diagnostics.push(diag('W_EMPTY_FILE', 'file is empty', file));
      return;
    }
    const fileMap = asMap(loaded.value);
    if (!fileMap) {
      project.diagnostics.push(diag('E_NOT_MAPPING', `a ${kind} file must be a mapping`, file));
      return;
    }
    const stem = path.basename(file).replace(/\.(ya?ml)$/i, '');
    const fileAt = locatorFor(loaded);
    if (kind === 'environment') addEnvironment(project, fileMap, file, [], fileAt, stem);
    else addEntity(project, kind as 'actor' | 'resource', fileMap, stem, file, [], fileAt);
  });
}

/** Which kind a file is, from its path (docs/format.md#layout-kind): one level under a recognised directory. */
function classify(dir: string, file: string): FileKind {
  const parts = path.relative(dir, file).split(path.sep);
  return parts.length === 2 && Object.hasOwn(LAYOUT_DIRS, parts[0]) ? LAYOUT_DIRS[parts[0]] : 'discarded';
}

function addEnvironment(project: Project, raw: RawMap, file: string, yamlPath: YamlPath, at: Locator, fallbackId: string): void {
  const id = idOf(raw, fallbackId);
  if (duplicate(project, project.environments, 'environment', id, at(yamlPath.length ? yamlPath : ['name']))) return;
  project.environments.set(id, buildEnvironment(id, raw, file, yamlPath, at));
}

function addEntity(project: Project, kind: 'actor' | 'resource', raw: unknown, fallbackId: string, file: string, yamlPath: YamlPath, at: Locator): void {
  const map = asMap(raw);
  if (!map) {
    project.diagnostics.push(diagAt('E_NOT_MAPPING', `${kind} "${fallbackId}" must be a mapping`, at(yamlPath)));
    return;
  }
  const id = idOf(map, fallbackId);
  if (kind === 'actor') {
    if (duplicate(project, project.actors, 'actor', id, at(yamlPath))) return;
    project.actors.set(id, buildActor(id, map, file, yamlPath, at));
    return;
  }
  if (duplicate(project, project.resources, 'resource', id, at(yamlPath))) return;
  const { resource, operations } = buildResource(id, map, file, yamlPath, at);
  project.resources.set(id, resource);
  for (const op of operations) project.operations.set(op.id, op);
}

/** docs/format.md#layout-ids: the id is `name:`, else the filename stem (or the inline key). */
function idOf(map: RawMap, fallback: string): string {
  return asString(map.name)?.trim() || fallback;
}

function duplicate(project: Project, existing: Map<string, { file: string; loc: Loc }>, kind: string, id: string, loc: Loc): boolean {
  const first = existing.get(id);
  if (!first) return false;
  const where = `${path.relative(project.dir, first.loc.file) || ROOT_FILE}:${first.loc.line}`;
  project.diagnostics.push(diagAt('E_DUPLICATE_ID', `${kind} "${id}" is already defined at ${where}; this one is ignored`, loc));
  return true;
}

function readSource(file: string, kind: FileKind, project: Project, realDir: string, cache: ParseCache | undefined, importLoc?: Loc) {
  const read = readProjectFile(file, realDir);
  if (!read.ok) {
    const d = read.diagnostic;
    if (kind === 'root' && d.code === 'E_FILE_NOT_FOUND') {
      project.diagnostics.push(diag('E_NO_ROOT', `no ${ROOT_FILE} in ${project.dir}`, project.dir));
    } else if (importLoc && d.code === 'E_FILE_NOT_FOUND') {
      project.diagnostics.push(diagAt('E_FILE_NOT_FOUND', `import "${path.relative(project.dir, file)}": ${d.message}`, importLoc));
    } else {
      project.diagnostics.push(d);
    }
    return undefined;
  }
  const { source, diagnostics } = sourceFromText(file, kind, read.text, cache);
  project.diagnostics.push(...diagnostics);
  return source;
}
