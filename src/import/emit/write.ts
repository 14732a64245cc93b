// Writing a new project directory: the files in docs/format.md#files-written order, refusing to overwrite.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_CODES, importError } from '../errors.js';
import { docText, type EmittedFile } from './files.js';

/** Write `files` under `dir` (created). A non-empty existing directory is refused: use --into. */
export async function writeProject(files: EmittedFile[], dir: string): Promise<string[]> {
  const existing = await readdir(dir).catch(() => [] as string[]);
  if (existing.length) {
    throw importError(IMPORT_CODES.outExists, `${dir} is not empty: import into an existing project with --into, or choose an empty --out directory`, dir);
  }
  const written: string[] = [];
  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, docText(f.doc), 'utf8');
    written.push(target);
  }
  return written;
}
