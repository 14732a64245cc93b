// --record: after a live run, operations that passed get `verified_against: live_capture`
// (docs/format.md#provenance-and-state-changes), written into their files in place.
// `flow calibrate --apply` also records the answer that proved it, as
// `_provenance.evidence.observed: "METHOD path -> status"`.
import { editYamlFile, type Project } from '../project/index.js';
import type { OperationResult } from './types.js';

export async function recordVerified(
  project: Project,
  results: OperationResult[],
  observed?: ReadonlyMap<string, string>,
): Promise<{ files: string[]; operations: string[] }> {
  const byFile = new Map<string, Array<{ path: (string | number)[]; observed?: string }>>();
  const operations: string[] = [];
  for (const r of results) {
    const op = project.operations.get(r.operation);
    if (r.status !== 'passed' || !op) continue;
    const seen = observed?.get(op.id);
    if (op.provenance?.verifiedAgainst === 'live_capture' && (!seen || op.provenance.evidence?.observed === seen)) continue;
    const list = byFile.get(op.file) ?? [];
    list.push({ path: [...op.yamlPath], observed: seen });
    byFile.set(op.file, list);
    operations.push(op.id);
  }
  const files: string[] = [];
  for (const [file, entries] of byFile) {
    const changed = await editYamlFile(project.dir, file, (doc) => {
      for (const e of entries) {
        doc.setIn([...e.path, '_provenance', 'verified_against'], 'live_capture');
        if (e.observed) doc.setIn([...e.path, '_provenance', 'evidence', 'observed'], e.observed);
      }
    });
    if (changed) files.push(file);
  }
  return { files, operations };
}
