// One slip, one error: a resource file that does not parse defines nothing, so every
// reference to it elsewhere is E_REF_UNDEFINED too. Those findings are not shown; they are
// counted under the file that did not parse, which is what needs fixing.
import path from 'node:path';
import type { Diagnostic, Project, SourceFile } from '../project/index.js';
import type { MissingName } from './rule.js';

/** What was not shown because it only follows from `file`, which did not parse. */
export interface FollowOn {
  /** absolute path of the file that did not parse */
  file: string;
  errors: number;
  warnings: number;
}

/** A file of one of these kinds may define what a finding says is missing. */
const DEFINING = new Set(['actor', 'resource', 'environment']);

/** The files that did not parse (the loader reported an error for them), and the names each would define. */
function unparsedFiles(project: Project): Array<{ file: SourceFile; names: Set<string> }> {
  const failed = new Set(project.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  return project.files.filter((f) => DEFINING.has(f.kind) && f.value === undefined && failed.has(f.path)).map((file) => ({ file, names: namesOf(file) }));
}

/** Its filename stem, and the `name:` the parser still read (the id is `name:`, else the stem). */
function namesOf(file: SourceFile): Set<string> {
  const names = new Set([path.basename(file.path).replace(/\.(ya?ml)$/i, '')]);
  try {
    const name: unknown = file.doc?.get('name');
    if (typeof name === 'string' && name.trim()) names.add(name.trim());
  } catch {
    // a document too broken to read a key from: the stem is all there is
  }
  return names;
}

function defines(kind: string, names: Set<string>, missing: MissingName): boolean {
  // an environment that did not parse may hold any variable
  if (missing.kind === 'variable') return kind === 'environment';
  const scope = missing.kind === 'scope' ? kind === 'actor' || kind === 'resource' : kind === missing.kind;
  return scope && names.has(missing.name);
}

/**
 * Splits the findings into those shown and those that follow from a file that did not parse
 * (counted per file). `missing` gives what each finding says is undefined, if anything.
 */
export function separateFollowOns<T extends Diagnostic>(
  project: Project,
  found: Array<{ diagnostic: T; missing?: MissingName }>,
): { shown: T[]; followOns: FollowOn[] } {
  const unparsed = unparsedFiles(project);
  if (!unparsed.length) return { shown: found.map((f) => f.diagnostic), followOns: [] };
  const counts = new Map<string, FollowOn>();
  const shown: T[] = [];
  for (const { diagnostic, missing } of found) {
    const source = missing && unparsed.find((u) => defines(u.file.kind, u.names, missing));
    if (!source) {
      shown.push(diagnostic);
      continue;
    }
    const count = counts.get(source.file.path) ?? { file: source.file.path, errors: 0, warnings: 0 };
    count[diagnostic.severity === 'error' ? 'errors' : 'warnings']++;
    counts.set(source.file.path, count);
  }
  return { shown, followOns: [...counts.values()] };
}
