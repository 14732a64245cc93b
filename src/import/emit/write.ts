// Writing a new project directory: the files in docs/format.md#files-written order, refusing to
// overwrite, assembled aside and moved into place at the end (src/project/write.ts).
import { readdir } from 'node:fs/promises';
import { writeNewProject } from '../../project/index.js';
import { IMPORT_CODES, importError } from '../errors.js';
import { docText, type EmittedFile } from './files.js';

/**
 * Write `files` under `dir` (created), with `extra` files as they are (the kept description:
 * description.ts). A non-empty existing directory is refused: use --into.
 */
export async function writeProject(files: EmittedFile[], dir: string, extra: ReadonlyArray<{ path: string; text: string }> = []): Promise<string[]> {
  const existing = await readdir(dir).catch(() => [] as string[]);
  if (existing.length) {
    throw importError(IMPORT_CODES.outExists, `${dir} is not empty: import into an existing project with --into, or choose an empty --out directory`, dir);
  }
  return writeNewProject(dir, [...files.map((f) => ({ path: f.path, text: docText(f.doc) })), ...extra]);
}
