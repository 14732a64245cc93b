// Diagnostics carry absolute paths; output shows them relative to the working directory,
// with `/` on every platform (GitHub annotations and golden files need one form).
import path from 'node:path';

export function relativeFile(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return (rel || '.').split(path.sep).join('/');
}
