// Which files a flow suite depends on, so that watch mode re-runs the right `flow.yaml` when
// one of them changes: every file the project read, the hook files and upload files its
// operations name, and the directories its `imports` globs expand (a new resource file).
import path from 'node:path';
import type { Project, TemplateValue } from '../project/index.js';

export interface SuiteDependencies {
  /** absolute, slash-separated paths */
  files: string[];
  /** `dir/*.yaml` import globs: a file added or changed there belongs to the suite */
  globs: Array<{ dir: string; ext: string }>;
}

/** Forward slashes, as Vitest's watcher reports paths on every platform. */
export function slash(p: string): string {
  return p.replace(/\\/g, '/');
}

const FILE_REF = /^@?\.\.?\//; // `./hooks/x.js`, `@./fixtures/a.pdf`
const TRAILING_GLOB = /^(.*)\/\*(\.ya?ml)$/;

export function projectDependencies(project: Project): SuiteDependencies {
  const files = new Set<string>([slash(project.rootFile)]);
  for (const source of project.files) files.add(slash(source.path));
  for (const op of project.operations.values()) {
    const bases = [project.dir, path.dirname(op.file)];
    for (const ref of [op.preRequest, op.postResponse]) addFileRef(files, ref, bases);
    for (const value of Object.values(op.bodyForm ?? {})) addFileRef(files, value, bases);
  }
  const globs: SuiteDependencies['globs'] = [];
  for (const pattern of project.imports) {
    const m = TRAILING_GLOB.exec(slash(pattern));
    if (m) globs.push({ dir: slash(path.resolve(project.dir, m[1])), ext: m[2] });
  }
  return { files: [...files], globs };
}

/**
 * A hook or upload given as a relative path. Whether the runtime reads it relative to the
 * project or to the declaring file is its business: both candidates are watched, a path
 * that does not exist costs one map entry.
 */
function addFileRef(files: Set<string>, ref: TemplateValue | undefined, bases: string[]): void {
  if (typeof ref !== 'string' || !FILE_REF.test(ref) || ref.includes('\n')) return;
  const rel = ref.startsWith('@') ? ref.slice(1) : ref;
  for (const base of bases) files.add(slash(path.resolve(base, rel)));
}

/**
 * dependency file -> the projects (flow.yaml paths) that read it -> the test files that run
 * them: the flow.yaml suite itself and the `flowTest` files. Kept up to date by the plugin.
 */
export class DependencyIndex {
  private readonly suites = new Map<string, SuiteDependencies>();
  private readonly byFile = new Map<string, Set<string>>();
  /** project -> the test files that run it, and back */
  private readonly tests = new Map<string, Set<string>>();
  private readonly runs = new Map<string, string[]>();

  set(suite: string, deps: SuiteDependencies): void {
    const key = slash(suite);
    this.delete(key);
    this.suites.set(key, deps);
    for (const file of deps.files) {
      let owners = this.byFile.get(file);
      if (!owners) this.byFile.set(file, (owners = new Set()));
      owners.add(key);
    }
  }

  delete(suite: string): void {
    const key = slash(suite);
    const old = this.suites.get(key);
    if (!old) return;
    this.suites.delete(key);
    for (const file of old.files) {
      const owners = this.byFile.get(file);
      owners?.delete(key);
      if (owners && owners.size === 0) this.byFile.delete(file);
    }
  }

  /** `testFile` runs these projects (and no others: an edit may have dropped one). */
  setTestFile(testFile: string, projects: string[]): void {
    const file = slash(testFile);
    for (const project of this.runs.get(file) ?? []) this.tests.get(project)?.delete(file);
    const keys = projects.map(slash);
    if (keys.length) this.runs.set(file, keys);
    else this.runs.delete(file);
    for (const key of keys) {
      let users = this.tests.get(key);
      if (!users) this.tests.set(key, (users = new Set()));
      users.add(file);
    }
  }

  /** The projects that depend on `file`, or undefined when none does (Vitest then handles the change itself). */
  suitesFor(file: string): string[] | undefined {
    const key = slash(file);
    const found = new Set(this.byFile.get(key) ?? []);
    const dir = key.slice(0, key.lastIndexOf('/'));
    for (const [suite, deps] of this.suites) {
      if (deps.globs.some((g) => g.dir === dir && key.endsWith(g.ext))) found.add(suite);
    }
    return found.size > 0 ? [...found] : undefined;
  }

  /** The test files that run these projects; a project no test file was seen running stands for itself. */
  testsOf(projects: string[]): string[] {
    const out = new Set<string>();
    for (const project of projects) for (const file of this.tests.get(slash(project)) ?? [slash(project)]) out.add(file);
    return [...out];
  }

  /** every project seen: run by a flow.yaml suite or named by a flowTest file */
  projects(): string[] {
    return [...new Set([...this.suites.keys(), ...this.tests.keys()])];
  }

  /** whether the project is tracked (its dependencies are known) */
  has(suite: string): boolean {
    return this.suites.has(slash(suite));
  }

  get size(): number {
    return this.suites.size;
  }
}
