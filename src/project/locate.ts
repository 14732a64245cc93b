// file:line:col for any node of a loaded project, from each file's index of positions.
import { positionAt } from './positions.js';
import type { Loc, Project, SourceFile, YamlPath } from './types.js';

const indexes = new WeakMap<Project, Map<string, SourceFile>>();

/** The loaded file at `file` (indexed once per project). */
export function sourceOf(project: Project, file: string): SourceFile | undefined {
  let index = indexes.get(project);
  if (!index || index.size !== project.files.length) {
    index = new Map(project.files.map((f) => [f.path, f]));
    indexes.set(project, index);
  }
  return index.get(file);
}

/**
 * The position of the node at `yamlPath` in `file` (of its key with `atKey`). When the path
 * does not exist, the deepest existing ancestor; when the file has no document, line 1.
 */
export function locate(project: Project, file: string, yamlPath: YamlPath, atKey = false): Loc {
  const source = sourceOf(project, file);
  return source ? locateIn(source, yamlPath, atKey) : { file, line: 1, col: 1 };
}

export function locateIn(source: SourceFile, yamlPath: YamlPath, atKey = false): Loc {
  if (!source.positions) return { file: source.path, line: 1, col: 1 };
  return { file: source.path, ...positionAt(source.positions, yamlPath, atKey) };
}
