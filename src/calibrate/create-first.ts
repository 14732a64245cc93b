// A read that failed because the list its value comes from found no item (a fresh server's
// lists are empty, and nothing made the list run after a create): the list is tried after a
// create of its resource, on a fork of its own (cleaned up as any try). When the list then finds
// an item and the read passes, `depends_on: [<the create>]` on the list is proposed, with the
// try's answers; a create the safety flags refuse is never sent, and a question says so.
import type { ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import { emptyListOf, type OperationResult } from '../runner/index.js';
import { observedOf } from './diagnose.js';
import { targetOf, withEdits } from './model.js';
import { statusOf } from './repair.js';
import { refusal, refusalWithPrerequisites } from './safety.js';
import type { Edit, OpenQuestion, Proposal, SafetyFlags } from './types.js';

/** Creates tried for one list (a resource has few). */
const MAX_CREATES = 3;

export interface CreateFirstContext {
  project: Project;
  graph: ProjectGraph;
  flags: SafetyFlags;
  edited: Set<string>;
  pending: Edit[];
  /** `list after create` pairs tried so far in the calibration, with what the try's answers were: each is tried once */
  tried: Map<string, string>;
  /** one try on a fork of its own: `operation`'s result, and the results of `also` in that try */
  tryWith(project: Project, operation: string, purpose: string, also: readonly string[]): Promise<Map<string, OperationResult>>;
}

export async function proveCreateFirst(
  results: readonly OperationResult[],
  ctx: CreateFirstContext,
): Promise<{ proposals: Proposal[]; questions: OpenQuestion[]; handled: Set<string> }> {
  const out = { proposals: [] as Proposal[], questions: [] as OpenQuestion[], handled: new Set<string>() };
  const round = new Map(results.map((r) => [r.operation, r]));
  // a list one consumer proved this round: its other consumers wait for the next round
  const proven = new Set<string>();
  for (const r of results) {
    const e = r.status === 'failed' ? emptyListOf(r) : undefined;
    if (!e || !ctx.project.operations.has(e.producer)) continue;
    if (proven.has(e.producer)) {
      out.handled.add(r.operation);
      continue;
    }
    const listed = round.get(e.producer);
    const empty = `${e.reference} was never produced: ${e.producer} answered ${listed ? (statusOf(listed) ?? 'passed') : 'passed'} with no item at \`${e.path}\``;
    const ask = (why: string) => {
      out.handled.add(r.operation);
      out.questions.push({ operation: r.operation, observed: listed && observedOf(ctx.project, listed), question: `${empty}; ${why}` });
    };
    const creates = e.creates.filter((c) => ctx.project.operations.has(c));
    if (!creates.length) {
      ask(
        e.after.length
          ? `it runs after ${e.after.join(', ')} already: what it lists is not what the create made`
          : `the project has no create of ${e.scope}: the list needs something there (made by hand, or a create added to the project)`,
      );
      continue;
    }
    const refusalOf = (id: string) => refusal(ctx.project.operations.get(id)!, ctx.flags);
    const refused = creates.map((c) => [c, refusalWithPrerequisites(ctx.graph, c, refusalOf)] as const);
    const allowed = refused.filter(([, why]) => !why).map(([c]) => c);
    if (!allowed.length) {
      ask(`its create ${refused[0][0]} may not run (${refused[0][1]}): with it first, the list may find one`);
      continue;
    }
    const said: string[] = [];
    for (const create of allowed.slice(0, MAX_CREATES)) {
      const edit: Edit = { kind: 'depends_on', operation: e.producer, to: create };
      const key = `${e.producer} after ${create}`;
      if (ctx.edited.has(targetOf(edit))) continue;
      const before = ctx.tried.get(key);
      if (before !== undefined) {
        said.push(before);
        continue;
      }
      const got = await ctx.tryWith(withEdits(ctx.project, [...ctx.pending, edit]), r.operation, `try ${e.producer} after ${create}`, [create, e.producer]);
      const [made, list, read] = [got.get(create), got.get(e.producer), got.get(r.operation)];
      const items = list?.status === 'passed' ? list.extracted[e.field] : undefined;
      const count = Array.isArray(items) ? items.length : 0;
      const answers = `with ${create} first (${answer(made)}), ${e.producer} answered ${answer(list)} with ${count} item(s) and ${r.operation} ${answer(read)}`;
      if (made?.status !== 'passed' || !count || read?.status !== 'passed') {
        ctx.tried.set(key, answers);
        said.push(answers);
        continue;
      }
      ctx.edited.add(targetOf(edit));
      ctx.pending.push(edit);
      proven.add(e.producer);
      out.handled.add(r.operation);
      out.proposals.push({ edit, operation: e.producer, observed: observedOf(ctx.project, list!), why: `${empty}; ${answers} (proven by ${r.operation})` });
      break;
    }
    if (!proven.has(e.producer) && said.length) ask(`${said.join('; ')}: no try proves a create first`);
  }
  return out;
}

/** What a try's operation answered: its status, else how it ended (a value it could not read). */
const answer = (r: OperationResult | undefined) => {
  if (!r) return 'not run';
  const status = statusOf(r);
  return status !== undefined ? String(status) : `${r.status}${r.error ? ` (${r.error.code})` : ''}`;
};
