// Write a throwaway project directory for a test: { 'flow.yaml': '…', 'resources/x.yaml': '…' }.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made: string[] = [];

export async function writeProject(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-test-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return dir;
}

/** Remove every directory writeProject made (call from afterAll). */
export async function cleanProjects(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export function codes(diags: Array<{ code: string }>): string[] {
  return diags.map((d) => d.code);
}
