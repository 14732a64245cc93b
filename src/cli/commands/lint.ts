// `flow lint`: load, lint, print with the chosen formatter, set the exit code. No logic that
// the library lacks: the checks are in src/lint, the output in src/lint/format.
import { parseCommandArgs } from '../usage.js';
import path from 'node:path';
import { CODES, fixProject, format, FORMATS, isFormatName } from '../../lint/index.js';
import { reportingWriteErrors } from '../write-failure.js';
import { openProject } from '../../open/index.js';
import { displayPath, type Project } from '../../project/index.js';
import { CACHE_OPTIONS, cacheOptions, optionHelp, type OptionTable } from '../options.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { PROBLEM_EXIT, problemMessage } from '../problem.js';

const OPTIONS = {
  project: { type: 'string', short: 'p', default: '.', arg: '<dir>', help: 'the project directory (holding flow.yaml) or the flow.yaml path; default "."' },
  format: {
    type: 'string',
    short: 'f',
    default: 'stylish',
    arg: '<name>',
    help: [
      `output format: ${Object.keys(FORMATS).join(', ')}; default stylish`,
      '  stylish  one line per problem, "path:line:col  severity  CODE  message", then a summary',
      '  json     an array of {file, line, col, severity, code, message}',
      '  github   GitHub Actions annotations (::error file=…,line=…,col=…,title=CODE::message)',
    ],
  },
  strict: { type: 'boolean', default: false, help: 'warnings fail too (exit 1)' },
  quiet: { type: 'boolean', short: 'q', default: false, help: 'errors only: warnings are neither printed nor counted' },
  fix: {
    type: 'boolean',
    default: false,
    help: [
      'apply the safe fixes in place, then lint (comments and order kept):',
      '  a scalar depends_on/assert becomes a sequence, a path in baseUrl moves',
      '  into the operation paths, a plaintext credential becomes !secret NAME',
      '  (the value is not printed; set it with `flow secret set NAME`)',
    ],
  },
  ...CACHE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

/** The options; with `codes`, also every code lint can print (for --help). */
export function usage(codes = false): string {
  const width = Math.max(...Object.keys(CODES).map((c) => c.length)) + 2;
  const codeLines = Object.entries(CODES).map(([code, info]) => `  ${code.padEnd(width)}${info.severity.padEnd(9)}${info.cause}`);
  return [
    'Usage: flow lint [--project <dir>] [--format stylish|json|github] [--strict] [--quiet] [--fix]',
    '',
    'Checks the structure of a project: YAML, keys and types (the JSON Schemas in schemas/),',
    'references, depends_on targets, cycles; and the syntax of assertions and extraction paths,',
    'which a run would otherwise fail on. It does not call the API.',
    '',
    'Options:',
    optionHelp(OPTIONS),
    'Exit codes: 0 no errors (warnings allowed unless --strict), 1 errors found, 2 usage error (unknown option',
    'or format, no such project or no flow.yaml in it).',
    '',
    ...(codes ? ['Codes (docs/lint.md explains each):', ...codeLines, ''] : ['`flow lint --help` also lists every code.', '']),
  ].join('\n');
}

const lintCommand: Command = async (argv: string[], io: CliIO): Promise<number> => {
  const parsed = parseCommandArgs(
    { name: 'lint', help: usage(true), errorHelp: usage() },
    { args: argv, options: OPTIONS, strict: true, allowPositionals: false },
    io,
  );
  if (typeof parsed === 'number') return parsed;
  const values: { project: string; format: string; strict: boolean; quiet: boolean; help: boolean; fix: boolean; 'no-cache': boolean; 'cache-dir'?: string } =
    parsed.values;
  if (!isFormatName(values.format)) {
    return usageError(io, `unknown format "${values.format}": use one of ${Object.keys(FORMATS).join(', ')}`);
  }

  const target = path.resolve(io.cwd, values.project);
  let unwritten = false;
  const opened = await openProject(target, {
    strict: values.strict,
    cache: cacheOptions(values, io.env, io.cwd),
    // docs/design.md#edits-in-place: the files are edited in place, never regenerated; then the project is read again.
    edit: values.fix
      ? async (project) => {
          const changed = await reportingWriteErrors('lint', io, () => fix(project, io));
          if (typeof changed === 'number') unwritten = true;
          // read again after a refused write too: files before it may have been written
          return changed !== false;
        }
      : undefined,
  });
  const result = opened.lint;
  // --quiet drops warnings before output and exit code, so --strict has none left to fail on.
  const shown = values.quiet ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
  const followOns = values.quiet ? result.followOns.filter((f) => f.errors) : result.followOns;
  io.stdout(format(values.format, shown, { cwd: io.cwd, followOns }));
  if (opened.problem?.kind === 'not-a-project') {
    io.stderr(`flow lint: ${problemMessage(opened.problem, values.project)}\n`);
    return PROBLEM_EXIT['not-a-project'];
  }
  const ok = values.quiet ? result.errors === 0 : result.ok;
  return ok && !unwritten ? EXIT.ok : EXIT.failed;
};

async function fix(project: Project, io: CliIO): Promise<boolean> {
  const fixed = await fixProject(project);
  for (const f of fixed.fixes) io.stderr(`fixed  ${displayPath(f.file, io.cwd)}  ${f.code}  ${f.message}\n`);
  return fixed.changedFiles.length > 0;
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`flow lint: ${message}\n\n${usage()}`);
  return EXIT.usage;
}

export default lintCommand;
