// After a round: each operation whose path holds an id given from outside, and that could not
// run for want of the --var or answered 404, is tried with the id linked to its producer
// (links.ts), and with what the answers then ask for (repair.ts). A link is proposed only when
// the consumer's try with the produced value is accepted; an id no link gives is looked for
// under another name (aliases.ts).
import type { Project } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { OperationResult } from '../runner/index.js';
import { proveAliases } from './aliases.js';
import { observedOf } from './diagnose.js';
import { linkEdits, unproducedId } from './links.js';
import { targetOf } from './model.js';
import { proposeSearch, searchAccepted, statusOf, type SearchContext } from './repair.js';
import type { CalibrationPlan, OpenQuestion, Proposal } from './types.js';

export async function proveLinks(
  model: Project,
  plan: CalibrationPlan,
  results: readonly OperationResult[],
  responses: ReadonlyMap<string, FlowResponse>,
  ctx: SearchContext,
): Promise<{ proposals: Proposal[]; questions: OpenQuestion[]; proven: Set<string> }> {
  const out = { proposals: [] as Proposal[], questions: [] as OpenQuestion[], proven: new Set<string>() };
  const candidates: Array<[string, string[]]> = [
    ...plan.notRun.filter((n) => n.variables?.length).map((n): [string, string[]] => [n.operation, n.variables!]),
    // a 404, or a 403 with an id given from outside (servers refuse what does not exist)
    ...results
      .filter((r) => r.status === 'failed' && (statusOf(r) === 404 || (statusOf(r) === 403 && unproducedId(model, r.operation))))
      .map((r): [string, string[]] => [r.operation, []]),
  ];
  for (const [id, unset] of candidates) {
    const { edits, why } = linkEdits(model, id, responses, unset, ctx.isSecret);
    const fresh = edits.filter((e) => !ctx.edited.has(targetOf(e)));
    if (!fresh.some((e) => e.kind === 'path_ref')) continue;
    const found = await searchAccepted(ctx, id, fresh, why);
    if (!found.ok || !found.last) {
      out.questions.push({
        operation: id,
        observed: found.last ? observedOf(model, found.last) : undefined,
        question: `its path's id(s) linked to their producer (${why.join('; ')}) was not accepted (${statusOf(found.last!) ?? 'no answer'}): the link needs a look`,
      });
      continue;
    }
    proposeSearch(out, ctx, id, found, observedOf(model, found.last), `then ${statusOf(found.last) ?? 'passed'} with the produced value`);
    out.proven.add(id);
  }
  // ids no link gives: a field of a create's answer under another name
  const aliased = await proveAliases(model, plan.notRun, results, responses, ctx, out.proven);
  out.proposals.push(...aliased.proposals);
  out.questions = out.questions.filter((q) => !aliased.proven.has(q.operation));
  for (const id of aliased.proven) out.proven.add(id);
  return out;
}
