// An answer to the import procedure written by someone else, typically an LLM
// (docs/format.md#importing-an-api-description, #files-written): a plan in Markdown, then each
// file in a fenced block labelled with its path.
// `flow import --check answer.md` reads the files out of it and checks them as a project,
// and checks that the plan has the five sections of docs/format.md#the-plan, in order.
import { blocksOf, type Block } from '../readers/markdown-blocks.js';
import { IMPORT_CODES, importError } from '../errors.js';
import { PLAN_HEADINGS } from '../infer/draft.js';
import { CHECK_CODES, type CheckFinding } from './finding.js';

export interface AnswerFile {
  /** relative, `/`-separated */
  path: string;
  text: string;
  /** 1-based line of the fence in the answer */
  line: number;
}

export interface Answer {
  files: AnswerFile[];
  /** the headings before the first file: the plan's sections */
  headings: Array<{ text: string; line: number }>;
}

const PLAN_SECTIONS = Object.values(PLAN_HEADINGS);

/** A YAML file path in a fence label or in the line just before a block: `flow.yaml`, `resources/orders.yaml`. */
const YAML_PATH = /(?:^|[\s:="'`*])((?:[\w.-]+\/)*[\w.-]+\.ya?ml)(?=$|[\s"'`*:])/;

/**
 * What an import writes (docs/format.md#files-written): the root, and one file per
 * environment, actor and resource in their folders. An answer's file anywhere else (a CI
 * workflow, a compose file, the parse cache) is refused whole, however the gates judge it.
 */
const IMPORT_FILE = /^(?:flow\.yaml|(?:environments|actors|resources)\/[\w][\w.-]*\.ya?ml)$/;

/**
 * The files and plan headings of an answer; throws E_IMPORT_ANSWER when it holds no file, a
 * file outside the project, or a file an import does not write.
 */
export function readAnswer(markdown: string, source: string): Answer {
  const blocks = blocksOf(markdown);
  const files: AnswerFile[] = [];
  const headings: Answer['headings'] = [];
  blocks.forEach((b, i) => {
    if (b.kind === 'heading' && files.length === 0) headings.push({ text: b.text, line: b.line });
    if (b.kind !== 'code') return;
    const path = labelOf(b, blocks[i - 1]);
    if (!path) return;
    if (path.startsWith('/') || path.split('/').includes('..')) {
      throw importError(IMPORT_CODES.answer, `${source}:${b.line}: the file ${path} would lie outside the project`, source);
    }
    const rel = path.replace(/^\.\//, '');
    if (!IMPORT_FILE.test(rel)) {
      throw importError(
        IMPORT_CODES.answer,
        `${source}:${b.line}: ${rel} is not a file an import writes (flow.yaml, environments/, actors/, resources/): nothing written`,
        source,
      );
    }
    files.push({ path: rel, text: b.text, line: b.line });
  });
  if (files.length === 0) {
    throw importError(
      IMPORT_CODES.answer,
      `${source}: no file in the answer: each file is a fenced block labelled with its path, e.g. \`\`\`yaml resources/orders.yaml`,
      source,
    );
  }
  return { files, headings };
}

/** The label in the fence's info string, else a line that is only a path just before the block. */
function labelOf(block: Block, previous: Block | undefined): string | undefined {
  const fromInfo = block.info && YAML_PATH.exec(block.info)?.[1];
  if (fromInfo) return fromInfo;
  if (previous && previous.kind !== 'code' && previous.line >= block.line - 2) {
    const text = previous.text.trim();
    const m = YAML_PATH.exec(text);
    // only a line that is the path (with its markup), not a sentence that mentions one
    if (m && text.replace(/[`*_:#\s]/g, '') === m[1].replace(/[`*_:#\s]/g, '')) return m[1];
  }
  return undefined;
}

/** docs/format.md#the-plan: the plan's sections, all five, in order (numbering and case aside). */
export function planFindings(answer: Answer): CheckFinding[] {
  const wanted = PLAN_SECTIONS.map((name) => name.toLowerCase());
  const found = answer.headings.map((h) =>
    h.text
      .toLowerCase()
      .replace(/^[\d.)\s]+/, '')
      .trim(),
  );
  const at = wanted.map((w) => found.indexOf(w));
  const findings: CheckFinding[] = [];
  at.forEach((index, k) => {
    if (index < 0)
      findings.push({ code: CHECK_CODES.plan, file: 'plan', where: '', message: `the plan has no section "${PLAN_SECTIONS[k]}" (docs/format.md#the-plan)` });
  });
  const present = at.filter((i) => i >= 0);
  if (present.some((i, k) => k > 0 && i < present[k - 1])) {
    findings.push({
      code: CHECK_CODES.plan,
      file: 'plan',
      where: '',
      message: `the plan's sections are out of order: they go ${PLAN_SECTIONS.join(', ')} (docs/format.md#the-plan)`,
    });
  }
  return findings;
}
