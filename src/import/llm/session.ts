// `flow import --llm`, without the network: ask the model (a function given by the caller),
// read its answer into the plan and the files, put them through the gates, and send what
// still fails back for an edit round, up to `rounds` times. The caller writes the files only
// when the result passed (or the user asked to keep a failed one).
import { planFindings, readAnswer, type Answer, type AnswerFile } from '../check/answer.js';
import { formatFinding } from '../check/index.js';
import { IMPORT_CODES, importError } from '../errors.js';
import { PLAN_HEADINGS } from '../infer/draft.js';
import type { ObservedApi } from '../observed.js';
import { gate, planWithRemovals, type Removal } from './gate.js';
import { editRequest, firstRequest, systemPrompt } from './prompt.js';

interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type AskModel = (messages: ModelMessage[]) => Promise<{ text: string; finishReason?: string }>;

export interface ModelImportOptions {
  ask: AskModel;
  /** edit rounds after the first answer (--llm-rounds, default 2) */
  rounds?: number;
  progress?: (message: string) => void;
}

export interface ModelImportResult {
  /** the plan, with what was removed listed among its open questions */
  plan: string;
  files: AnswerFile[];
  removed: Removal[];
  /** what still fails after the last round; empty when every gate passed */
  problems: string[];
  /** edit rounds used */
  rounds: number;
}

const SOURCE = "the model's answer";

export async function importWithModel(
  inputs: Array<{ file: string; text: string }>,
  api: ObservedApi,
  options: ModelImportOptions,
): Promise<ModelImportResult> {
  const rounds = options.rounds ?? 2;
  const messages: ModelMessage[] = [
    { role: 'system', content: systemPrompt() },
    { role: 'user', content: firstRequest(inputs, api) },
  ];
  options.progress?.('asking the model');
  let reply = await ask(options.ask, messages);
  const first = readAnswer(reply, SOURCE);
  const plan = planOf(reply, first);
  const sections = planFindings(first).map(formatFinding);
  const removed: Removal[] = [];

  let checked = await gate(first.files, api, plan);
  removed.push(...checked.removed);
  let used = 0;
  // The plan's sections are not sent back: an edit round edits files.
  while (checked.problems.length > 0 && used < rounds) {
    used++;
    options.progress?.(`edit round ${used} of ${rounds}: ${checked.problems.length} problems`);
    messages.push({ role: 'assistant', content: reply }, { role: 'user', content: editRequest(checked.problems, checked.files) });
    reply = await ask(options.ask, messages);
    const edited = readAnswer(reply, SOURCE);
    checked = await gate(merge(checked.files, edited.files), api, plan);
    removed.push(...checked.removed);
  }
  return {
    plan: planWithRemovals(plan, removed, PLAN_HEADINGS.questions),
    files: checked.files,
    removed,
    problems: [...sections, ...checked.problems],
    rounds: used,
  };
}

async function ask(model: AskModel, messages: ModelMessage[]): Promise<string> {
  const answer = await model(messages);
  if (answer.finishReason === 'length') {
    throw importError(
      IMPORT_CODES.llmTruncated,
      `${SOURCE} stopped at the model's length limit (finish_reason: length): use a model with a larger output limit, or import fewer inputs at once`,
    );
  }
  return answer.text;
}

/** The plan: the answer up to the first file's fence (and its label line). */
function planOf(text: string, answer: Answer): string {
  const firstLine = Math.min(...answer.files.map((f) => f.line));
  const lines = text.split('\n').slice(0, firstLine - 1);
  while (lines.length && (lines[lines.length - 1].trim() === '' || /^[`*_]*[\w./-]+\.ya?ml[`*_:]*$/.test(lines[lines.length - 1].trim()))) lines.pop();
  return `${lines.join('\n')}\n`;
}

/** An edit replaces the files it sends back; the others stay as they were. */
function merge(current: AnswerFile[], edited: AnswerFile[]): AnswerFile[] {
  const byPath = new Map(edited.map((f) => [f.path, f]));
  const out = current.map((f) => byPath.get(f.path) ?? f);
  for (const f of edited) if (!current.some((c) => c.path === f.path)) out.push(f);
  return out;
}
