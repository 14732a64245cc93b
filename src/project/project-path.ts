// Files a project names (an upload's `@./file`, a hook file) must lie inside the project
// directory once symbolic links are followed: the checks the upload and the hook share.
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The project directory with its symbolic links resolved (as given, when it cannot be). */
export function realProjectDir(projectDir: string): Promise<string> {
  return realpath(projectDir).catch(() => resolve(projectDir));
}

/** realProjectDir, synchronously: for the loader, which reads project files synchronously (read.ts). */
export function realProjectDirSync(projectDir: string): string {
  try {
    return realpathSync(projectDir);
  } catch {
    return resolve(projectDir);
  }
}

/** `file` is below `root` (not `root` itself). */
export function isInside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}
