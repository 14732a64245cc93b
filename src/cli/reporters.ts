// `flow run --reporter <name> [--output-file <name>=<path>]`: which reporters, and where each
// writes. The reports themselves are src/report's; this module only chooses and writes files.
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { didYouMean } from '../graph/index.js';
import { writeOutputFile } from '../project/index.js';
import { DOCUMENT_REPORTERS, githubAnnotations, markdownReport, REPORTER_NAMES, type ReporterName, type RunReport } from '../report/index.js';
import type { CliIO } from './io.js';

export interface ChosenReporter {
  name: ReporterName;
  /** absolute path; none: stdout */
  file?: string;
}

/** The reporters that write one document, to a file when given one. */
const FILE_REPORTERS = new Set(Object.keys(DOCUMENT_REPORTERS) as ReporterName[]);

/** The reporters asked for, or a usage message. None asked for: `default`. */
export function chooseReporters(names: string[], outputFiles: string[], cwd: string): ChosenReporter[] | string {
  const chosen: ChosenReporter[] = [];
  for (const name of names.length ? names : ['default']) {
    if (!(REPORTER_NAMES as readonly string[]).includes(name))
      return `unknown reporter "${name}"${didYouMean(name, REPORTER_NAMES)}: use ${REPORTER_NAMES.join(', ')}`;
    if (!chosen.some((c) => c.name === name)) chosen.push({ name: name as ReporterName });
  }
  for (const assignment of outputFiles) {
    const eq = assignment.indexOf('=');
    const name = assignment.slice(0, eq);
    const file = assignment.slice(eq + 1);
    if (eq <= 0 || !file) return `--output-file takes <reporter>=<path>; got "${assignment}"`;
    const reporter = chosen.find((c) => c.name === name);
    if (!reporter) return `--output-file ${name}=…: no --reporter ${name} was given`;
    if (!FILE_REPORTERS.has(reporter.name)) return `--output-file: the ${name} reporter writes to stdout only (files: ${[...FILE_REPORTERS].join(', ')})`;
    reporter.file = path.resolve(cwd, file);
  }
  // A document on stdout must be alone there, or a script cannot read it.
  const onStdout = chosen.filter((c) => !c.file);
  const document = onStdout.find((c) => FILE_REPORTERS.has(c.name));
  if (document && onStdout.length > 1) {
    const others = onStdout
      .filter((c) => c !== document)
      .map((c) => c.name)
      .join(', ');
    return `the ${document.name} report and ${others} would share stdout: give --output-file ${document.name}=<path>`;
  }
  return chosen;
}

/**
 * Every reporter writes to a file: nothing else would reach the terminal, so `flow run` still
 * prints the summary there, and where each report went.
 */
export function allToFiles(chosen: readonly ChosenReporter[]): boolean {
  return chosen.every((c) => c.file !== undefined);
}

/** `junit report: reports/flows.xml`, one line per report written to a file. */
export function reportPaths(written: readonly ChosenReporter[], cwd: string): string {
  return written.map((c) => `${c.name} report: ${path.relative(cwd, c.file!) || c.file}\n`).join('');
}

/**
 * Write every report but `default` (streamed during the run). Returns the files that could not
 * be written, as messages, and the reporters whose file was written.
 */
export async function writeReports(report: RunReport, chosen: ChosenReporter[], io: CliIO): Promise<{ problems: string[]; written: ChosenReporter[] }> {
  const problems: string[] = [];
  const written: ChosenReporter[] = [];
  const write = async (what: string, file: string, text: string, append = false) => {
    try {
      if (append) {
        await mkdir(path.dirname(file), { recursive: true });
        await appendFile(file, text);
      } else writeOutputFile(file, text); // whole or not at all: a CI never reads half a JUnit file
      return true;
    } catch (err) {
      problems.push(`cannot write the ${what} to ${file}: ${(err as Error).message}`);
      return false;
    }
  };
  for (const c of chosen) {
    if (c.name === 'default') continue;
    if (c.name === 'github') {
      io.stdout(githubAnnotations(report, io.env.GITHUB_WORKSPACE || report.cwd));
      // Set by GitHub Actions for each step: Markdown appended there is shown on the run's page.
      const summary = io.env.GITHUB_STEP_SUMMARY;
      if (summary) await write('step summary', summary, markdownReport(report), true);
      continue;
    }
    const text = DOCUMENT_REPORTERS[c.name](report);
    if (!c.file) io.stdout(text);
    else if (await write(`${c.name} report`, c.file, text)) written.push(c);
  }
  return { problems, written };
}
