// --apply: the proposals written into the project's files in place (R7: comments, order and
// the user's other values kept), then `_provenance.verified_against: live_capture` and the
// evidence `observed: METHOD path -> status` on the operations that passed.
import { editYamlFile, type Project, type YamlPath } from '../project/index.js';
import { type OperationResult, recordVerified } from '../runner/index.js';
import type { Edit, Proposal } from './types.js';

interface Change {
  path: YamlPath;
  value: unknown;
  /** for an extraction: the node may be a string or a `{ path, source }` map */
  extract?: boolean;
}

export async function applyCalibration(
  project: Project,
  proposals: readonly Proposal[],
  results: OperationResult[],
  observed: ReadonlyMap<string, string>,
): Promise<{ files: string[]; verified: string[] }> {
  const byFile = new Map<string, Change[]>();
  for (const { edit } of proposals) {
    const [file, change] = located(project, edit);
    byFile.set(file, [...(byFile.get(file) ?? []), change]);
  }
  const files = new Set<string>();
  for (const [file, changes] of byFile) {
    const changed = await editYamlFile(project.dir, file, (doc) => {
      for (const c of changes) {
        const atPath = c.extract && typeof doc.getIn(c.path) !== 'string';
        doc.setIn(atPath ? [...c.path, 'path'] : c.path, c.value);
      }
    });
    if (changed) files.add(file);
  }
  const recorded = await recordVerified(project, results, observed);
  for (const f of recorded.files) files.add(f);
  return { files: [...files], verified: recorded.operations };
}

function located(project: Project, e: Edit): [string, Change] {
  if (e.kind === 'header_form') {
    const actor = project.actors.get(e.actor)!;
    if (e.place === 'inject') return [actor.file, { path: [...actor.yamlPath, 'inject', 'headers', e.header], value: e.to }];
    return [actor.auth!.file, { path: [...actor.auth!.yamlPath, 'key'], value: e.to }];
  }
  const op = project.operations.get(e.operation)!;
  if (e.kind === 'actor') return [op.file, { path: [...op.yamlPath, 'actor'], value: e.to }];
  if (e.kind === 'expect_status') {
    // a single status written as a scalar stays a scalar
    const list = Array.isArray(op.raw.expect_status) || e.to.length > 1;
    return [op.file, { path: [...op.yamlPath, 'expect_status'], value: list ? e.to : e.to[0] }];
  }
  const spec = op.extract.find((x) => x.name === e.name)!;
  return [spec.file, { path: spec.yamlPath, value: e.to, extract: true }];
}
