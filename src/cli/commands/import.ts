// `flow import`: inputs -> plan + project files, checked; `--into` edits a project in place;
// `--check` runs the self-check (and lint) on a project someone else wrote. Output only: the
// work is in src/import.
import {
  type CheckFinding,
  checkView,
  coverageLine,
  coverageOf,
  formatFinding,
  importApi,
  importInto,
  keepDescription,
  keptName,
  type ImportResult,
  INPUT_FORMATS,
  type InputFormat,
  mergeApis,
  planFindings,
  readAnswer,
  readInput,
  viewOfDirectory,
  withScratchProject,
  writeProject,
} from '../../import/index.js';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseCommandArgs } from '../usage.js';
import { hasCode } from '../../errors.js';
import { lint } from '../../lint/index.js';
import { displayLoc, displayPath, loadProject, type Project } from '../../project/index.js';
import { runModelImport, type LlmValues } from './import-llm.js';
import { optionHelp, type OptionTable } from '../options.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { writeNamedFile } from '../write-failure.js';

const OPTIONS = {
  out: { type: 'string', short: 'o', arg: '<dir>', help: 'write a new project into <dir> (created; must be empty)' },
  into: {
    type: 'string',
    arg: '<dir>',
    help: ['add to an existing project: files are edited in place, comments,', 'order and your values kept; only missing operations and keys are added'],
  },
  from: { type: 'string', arg: '<format>', help: `the format of every input: ${INPUT_FORMATS.join(', ')} (default: detected)` },
  plan: { type: 'string', arg: '<file>', help: 'write the plan there instead of stdout' },
  name: { type: 'string', arg: '<name>', help: "project name (default: the first input's title)" },
  env: { type: 'string', arg: '<id>', help: 'environment id (default: default)' },
  check: {
    type: 'string',
    arg: '<dir|file.md>',
    help: [
      'check a project (e.g. written by an LLM): the self-check of',
      'docs/format.md#self-check, lint, and with inputs given also the grounding',
      'and leak checks; or an answer in the form of docs/format.md#files-written',
      '(the plan, then each file in a fenced block labelled with its path), and',
      "the plan's five sections (docs/format.md#the-plan)",
    ],
  },
  llm: {
    type: 'boolean',
    default: false,
    help: [
      'let a language model write the project (an OpenAI-compatible chat',
      'endpoint): it gets the inputs (credentials seen in traffic cut out)',
      'and what the readers observed; its answer passes the same gates as',
      '--check. Ungrounded items are removed and become open questions;',
      'self-check and lint problems go back to it for edit rounds. Nothing',
      'is written unless every gate passes. Nothing is sent without --llm.',
    ],
  },
  'llm-url': { type: 'string', arg: '<url>', help: "the endpoint's base URL (…/v1); default FLOW_LLM_URL" },
  'llm-model': {
    type: 'string',
    arg: '<m>',
    help: ['the model; default FLOW_LLM_MODEL. The key: FLOW_LLM_API_KEY, or', '`flow secret set LLM_API_KEY --global` (none for a local server)'],
  },
  'llm-rounds': { type: 'string', arg: '<n>', help: 'edit rounds after the first answer (default 2)' },
  'llm-timeout': { type: 'string', arg: '<s>', help: 'seconds without a byte from the model before E_LLM_TIMEOUT (default 60)' },
  'keep-failed': { type: 'boolean', default: false, help: 'with --llm, write the files even when a gate still fails' },
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

/** Progress lines every this many operations when stderr is not a terminal. */
const PROGRESS_EVERY = 100;

export function usage(): string {
  return [
    'Usage: flow import <input>... (--out <dir> | --into <project>) [--from <format>] [--plan <file>] [--llm ...]',
    '       flow import --check <project|answer.md> [<input>...]',
    '',
    'Reads API descriptions and writes a plan (stdout, or --plan) and a project: flow.yaml,',
    'environments/, actors/, resources/. Inventing nothing: every path, field and status code',
    'comes from the inputs (each operation says where under _provenance.evidence); anything',
    'the inputs do not ground is an open question in the plan and is skipped.',
    '',
    'Options:',
    optionHelp(OPTIONS),
    'Several inputs are combined into one project (a collection and its environment, two docs).',
    'Exit codes: 0 imported and every check passed, 1 the checks or lint found problems',
    '(files are still written, to inspect), 2 usage error or unreadable input.',
    '',
  ].join('\n');
}

interface Values extends LlmValues {
  out?: string;
  into?: string;
  from?: string;
  plan?: string;
  check?: string;
  name?: string;
  env?: string;
  llm: boolean;
  help: boolean;
}

const importCommand: Command = async (argv, io) => {
  const parsed = parseCommandArgs({ name: 'import', help: usage() }, { args: argv, options: OPTIONS, strict: true, allowPositionals: true }, io);
  if (typeof parsed === 'number') return parsed;
  const values: Values = parsed.values;
  const inputs: string[] = parsed.positionals;
  if (values.from !== undefined && !(INPUT_FORMATS as readonly string[]).includes(values.from)) {
    return usageError(io, `unknown format "${values.from}": use one of ${INPUT_FORMATS.join(', ')}`);
  }
  const from = values.from as InputFormat | undefined;
  try {
    if (values.check !== undefined) return await checkCommand(values.check, inputs, from, io);
    if (!inputs.length) return usageError(io, 'give at least one input file');
    if (!values.out === !values.into) return usageError(io, 'give exactly one of --out <dir> (new project) or --into <project>');
    if (values.llm) return await runModelImport(inputs, values, from, io);
    return await runImport(inputs, values, from, io);
  } catch (err) {
    if (hasCode(err) && (err.code.startsWith('E_IMPORT_') || err.code.startsWith('E_WRITE_'))) {
      io.stderr(`flow import: ${err.code} ${err.message}\n`);
      return EXIT.usage;
    }
    if (hasCode(err) && err.code.startsWith('E_LLM_')) {
      io.stderr(`flow import: ${err.code} ${err.message}\n`);
      return EXIT.failed;
    }
    throw err;
  }
};

export default importCommand;

async function runImport(inputs: string[], values: Values, from: InputFormat | undefined, io: CliIO): Promise<number> {
  let shown = 0;
  const progress = (message: string): void => {
    if (io.isTTY) io.stderr(`\r\x1b[Kflow import: ${message}`);
    else if (!/^inferred (\d+)/.test(message) || Number(/^inferred (\d+)/.exec(message)![1]) % PROGRESS_EVERY === 0) io.stderr(`flow import: ${message}\n`);
    shown++;
  };
  const result = await importApi(inputs, { from, name: values.name, environment: values.env, cwd: io.cwd, progress });
  if (shown && io.isTTY) io.stderr('\r\x1b[K');
  const dir = path.resolve(io.cwd, (values.out ?? values.into)!);
  // the one OpenAPI input is kept in the project: calibrate and explore read it when no --openapi is given
  const d = result.description;
  let kept: { written: string } | { kept: string } | undefined;
  if (values.into) {
    const report = await importInto(result.files, dir);
    io.stderr(`flow import: into ${dir}: ${report.created.length} files created, ${report.edited.length} edited, ${report.added.length} additions\n`);
    for (const k of report.kept) io.stderr(`  kept: ${k}\n`);
    kept = d && keepDescription(dir, d);
  } else {
    // assembled aside with the rest, and moved into place with it
    const written = await writeProject(result.files, dir, d ? [{ path: keptName(d), text: d.text }] : []);
    io.stderr(`flow import: wrote ${written.length} files to ${dir}\n`);
    kept = d && { written: keptName(d) };
  }
  if (kept && d)
    io.stderr(
      'written' in kept
        ? `flow import: ${d.input} is kept in the project as ${kept.written}: calibrate and explore read it when no --openapi is given\n`
        : `  kept: ${kept.kept} (the project's own description file; ${d.input} not copied over it)\n`,
    );
  if (values.plan) {
    const failed = await writeNamedFile('import', io, values.plan, result.plan);
    if (failed !== undefined) return failed;
  } else io.stdout(result.plan);
  io.stderr(`flow import: coverage: ${coverageLine(coverageOf(result.draft.requests))}\n`);
  return report(result.findings, await lintDir(dir), io, summaryOf(result));
}

function summaryOf(r: ImportResult): string {
  const ops = r.draft.resources.reduce((n, x) => n + x.operations.length, 0);
  const stated = r.api.inputs.reduce((n, i) => n + i.operationCount, 0);
  const all = r.draft.resources.flatMap((x) => x.operations);
  const explicit = all.reduce((n, o) => n + o.dependsOn.length, 0);
  const implicit = r.draft.flows.reduce((n, f) => n + f.consumedBy.filter((c) => !c.startsWith('every ') && !c.startsWith('actor ')).length, 0);
  return `${ops} of ${stated} operations, ${r.draft.resources.length} resources, ${r.draft.actors.length} actors, ${r.draft.questions.length} open questions, ${implicit + explicit} dependencies (${explicit} depends_on)`;
}

async function lintDir(dir: string): Promise<Array<{ line: string; error: boolean }>> {
  return lintLines(await loadProject(dir));
}

function lintLines(project: Project): Array<{ line: string; error: boolean }> {
  const result = lint(project);
  return result.diagnostics.map((d) => ({
    line: `${displayLoc(d, project.dir)} ${d.severity} ${d.code} ${d.message}`,
    error: d.severity === 'error',
  }));
}

function report(findings: CheckFinding[], linted: Array<{ line: string; error: boolean }>, io: CliIO, what: string): number {
  const errors = linted.filter((l) => l.error);
  for (const f of findings) io.stderr(`check: ${formatFinding(f)}\n`);
  for (const l of linted) io.stderr(`lint: ${l.line}\n`);
  const ok = !findings.length && !errors.length;
  io.stderr(
    `flow import: ${what}; self-check and grounding ${findings.length ? `FAILED (${findings.length})` : 'passed'}; lint ${errors.length ? `${errors.length} errors` : '0 errors'}\n`,
  );
  return ok ? EXIT.ok : EXIT.failed;
}

async function checkCommand(target: string, inputs: string[], from: InputFormat | undefined, io: CliIO): Promise<number> {
  const abs = path.resolve(io.cwd, target);
  const isFile = await stat(abs).then(
    (s) => s.isFile(),
    () => false,
  );
  if (isFile) return checkAnswer(abs, inputs, from, io);
  const { view, project } = await viewOfDirectory(abs);
  const findings = checkView(view, await groundingContext(inputs, from, io));
  return report(findings, lintLines(project), io, `checked ${view.files.length} files${inputs.length ? ` against ${inputs.length} inputs` : ''}`);
}

/** An answer in Markdown: its files are written to a scratch directory and checked there. */
async function checkAnswer(file: string, inputs: string[], from: InputFormat | undefined, io: CliIO): Promise<number> {
  const answer = readAnswer(await readFile(file, 'utf8'), displayPath(file, io.cwd));
  const grounding = await groundingContext(inputs, from, io);
  return withScratchProject(answer.files, ({ view, project }) =>
    report(
      [...planFindings(answer), ...checkView(view, grounding)],
      lintLines(project),
      io,
      `checked the plan and ${answer.files.length} files of ${path.basename(file)}${inputs.length ? ` against ${inputs.length} inputs` : ''}`,
    ),
  );
}

async function groundingContext(inputs: string[], from: InputFormat | undefined, io: CliIO) {
  const apis = [];
  for (const i of inputs) apis.push(await readInput(i, { from, cwd: io.cwd }));
  return apis.length ? { api: mergeApis(apis) } : {};
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`flow import: ${message}\n\n${usage()}`);
  return EXIT.usage;
}
