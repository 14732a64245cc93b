// The OpenAPI description a project was imported from, kept in the project as `openapi.json`
// (or `openapi.yaml`): calibrate and explore read the schemas there when no --openapi is given,
// so the loop a user follows (import, then calibrate) proves bodies and query parameters from
// the description without being told where it is. Kept only when it is the one OpenAPI input;
// into an existing project, only where no such file is yet (one there is never replaced).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { writeProjectFile } from '../../project/index.js';

/** The names a kept description takes, in the order they are looked for. */
const DESCRIPTION_FILES = ['openapi.json', 'openapi.yaml', 'openapi.yml'] as const;

export interface KeptDescription {
  /** the input as the user named it */
  input: string;
  text: string;
}

/** The project file a description is kept as: JSON as `openapi.json`, else `openapi.yaml`. */
export function keptName(d: KeptDescription): string {
  return /\.json$/i.test(d.input) || /^\s*\{/.test(d.text) ? DESCRIPTION_FILES[0] : DESCRIPTION_FILES[1];
}

/**
 * Keep `d` in the project at `dir` (atomically). Returns the file written, or `{ kept }` when
 * the project has a description file already: that one stays as it is.
 */
export function keepDescription(dir: string, d: KeptDescription): { written: string } | { kept: string } {
  const existing = keptFile(dir);
  if (existing) return { kept: existing };
  const name = keptName(d);
  writeProjectFile(dir, name, d.text);
  return { written: name };
}

/** The project's description file at `dir`, when it has one: its name. */
function keptFile(dir: string): string | undefined {
  return DESCRIPTION_FILES.find((f) => existsSync(path.join(dir, f)));
}

/**
 * The description a command reads: the file given (`--openapi`, as given), else the one kept in
 * the project at `dir` (`kept`: say so); undefined when there is neither.
 */
export function descriptionFile(given: string | undefined, dir: string): { file: string; kept: boolean } | undefined {
  if (given !== undefined) return { file: given, kept: false };
  const found = keptFile(dir);
  return found === undefined ? undefined : { file: path.join(dir, found), kept: true };
}
