// The gates a model's answer goes through, the same as `flow import --check`: grounding, the
// self-check and lint. What fails grounding (a path, field or status code the input does not
// state) is not kept: it is removed from the files, and the plan lists it as an open question.
// What is left (self-check findings, lint errors) goes back to the model in an edit round.
import { parseDocument } from 'yaml';
import { lint } from '../../lint/index.js';
import { displayLoc, editedText, YAML_TAGS } from '../../project/index.js';
import type { AnswerFile } from '../check/answer.js';
import { CHECK_CODES, checkView, formatFinding, withScratchProject, type CheckFinding } from '../check/index.js';
import type { ObservedApi } from '../observed.js';

export interface Removal {
  file: string;
  where: string;
  /** why: the grounding finding's message */
  reason: string;
}

export interface GateResult {
  /** the files after removals */
  files: AnswerFile[];
  removed: Removal[];
  /** what still fails: self-check findings and lint errors, one line each */
  problems: string[];
}

/** Findings that mean "not in the input": removed, never kept, never sent back to be kept. */
const REMOVED_CODES: ReadonlySet<string> = new Set([CHECK_CODES.ungrounded, CHECK_CODES.publicActor]);

export async function gate(files: AnswerFile[], api: ObservedApi, plan: string): Promise<GateResult> {
  const removed: Removal[] = [];
  let current = files;
  // Removing an operation can leave another grounding problem visible only afterwards (an
  // extraction of a removed operation); a few passes settle it.
  for (let pass = 0; pass < 3; pass++) {
    const { findings } = await checkFiles(current, api, plan);
    const ungrounded = findings.filter((f) => REMOVED_CODES.has(f.code));
    if (!ungrounded.length) break;
    current = removeAll(current, ungrounded, removed);
  }
  const { findings, lintErrors } = await checkFiles(current, api, plan);
  const problems = [...findings.map(formatFinding), ...lintErrors];
  return { files: current, removed, problems };
}

/** The checks and lint, on the files written to a scratch project. */
function checkFiles(files: AnswerFile[], api: ObservedApi, plan: string): Promise<{ findings: CheckFinding[]; lintErrors: string[] }> {
  return withScratchProject(files, ({ view, project, dir }) => ({
    findings: checkView(view, { api, plan }),
    lintErrors: lint(project)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => `${displayLoc(d, dir)} ${d.code} ${d.message}`),
  }));
}

function removeAll(files: AnswerFile[], findings: CheckFinding[], removed: Removal[]): AnswerFile[] {
  const out: AnswerFile[] = [];
  for (const file of files) {
    const mine = findings.filter((f) => f.file === file.path);
    if (!mine.length) {
      out.push(file);
      continue;
    }
    const doc = parseDocument(file.text, { customTags: YAML_TAGS });
    let dropFile = false;
    for (const f of mine) {
      const target = removalPath(f);
      removed.push({ file: f.file, where: f.where, reason: f.message });
      if (target === 'file') dropFile = true;
      else doc.deleteIn(target);
    }
    if (!dropFile) out.push({ ...file, text: editedText(file.text, doc) });
  }
  return out;
}

/**
 * What to take out for a finding at `where`: an operation whose path the input does not have
 * goes whole; an actor whose login the input does not have takes its file with it; anything
 * else (a field, a header, a status, an extraction, an actor on a public operation) goes alone.
 */
function removalPath(f: CheckFinding): Array<string | number> | 'file' {
  const segments = f.where
    .split('.')
    .flatMap((s) => s.split(/\[(\d+)\]/).filter((x) => x !== ''))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  if (segments[0] === 'operations' && segments[2] === 'path') return segments.slice(0, 2);
  if (segments[0] === 'auth' && (segments[1] === 'path' || segments[1] === 'token_url')) return 'file';
  return segments;
}

/** The plan with the removals added to its open questions (a section is added when it has none). */
export function planWithRemovals(plan: string, removed: Removal[], heading: string): string {
  if (!removed.length) return plan;
  const items = removed.map(
    (r, i) =>
      `${i + 1}. Removed from the model's answer: ${r.file}${r.where ? ` ${r.where}` : ''}: ${r.reason}. It is not in the input; confirm it there before adding it.`,
  );
  const lines = plan.replace(/\s+$/, '').split('\n');
  const at = lines.findIndex(
    (l) =>
      /^#{1,6}\s/.test(l) &&
      l
        .replace(/^#+\s*/, '')
        .replace(/^[\d.)\s]+/, '')
        .trim()
        .toLowerCase() === heading.toLowerCase(),
  );
  if (at < 0) return `${lines.join('\n')}\n\n## ${heading}\n\n${items.join('\n')}\n`;
  let end = lines.length;
  for (let i = at + 1; i < lines.length; i++) {
    if (/^#{1,6}\s/.test(lines[i])) {
      end = i;
      break;
    }
  }
  lines.splice(end, 0, '', ...items);
  return `${lines.join('\n')}\n`;
}
