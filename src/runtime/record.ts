// --record: after a live run, operations that passed get `verified_against: live_capture`
// (spec part 3), written into their files in place.
import { editYamlFile } from '../project/edit.js';
import type { Project } from '../project/types.js';
import type { OperationResult } from './types.js';

export async function recordVerified(project: Project, results: OperationResult[]): Promise<{ files: string[]; operations: string[] }> {
  const byFile = new Map<string, Array<(string | number)[]>>();
  const operations: string[] = [];
  for (const r of results) {
    const op = project.operations.get(r.operation);
    if (r.status !== 'passed' || !op || op.provenance?.verifiedAgainst === 'live_capture') continue;
    const list = byFile.get(op.file) ?? [];
    list.push([...op.yamlPath]);
    byFile.set(op.file, list);
    operations.push(op.id);
  }
  const files: string[] = [];
  for (const [file, paths] of byFile) {
    const changed = await editYamlFile(file, (doc) => {
      for (const p of paths) doc.setIn([...p, '_provenance', 'verified_against'], 'live_capture');
    });
    if (changed) files.push(file);
  }
  return { files, operations };
}
