// The Markdown report: a summary table of what ran and the Mermaid graph of it, coloured by
// outcome, then each failure in full. GitHub's step summary (--reporter github) is this text.
import type { OperationResult } from '../runner/index.js';
import { displayPath } from '../project/index.js';
import { failureMessage, where } from './failure-text.js';
import { mermaidGraph } from './mermaid.js';
import { findingText } from './findings.js';
import type { RunReport } from './types.js';

const MARK = { passed: '✔', failed: '✖', skipped: '↷' } as const;
/** Mermaid's own limits (maxTextSize, maxEdges): past them a viewer shows an error instead of the graph. */
const MERMAID_MAX_TEXT = 50_000;
const MERMAID_MAX_EDGES = 500;
/** An error message in the table is cut here; the failure below has it all. */
const CELL_CHARS = 200;

export function markdownReport(report: RunReport): string {
  const { project, graph, summary, cwd } = report;
  const counts = [`${summary.passed} passed`, `${summary.failed} failed`, ...(summary.skipped ? [`${summary.skipped} skipped`] : [])].join(', ');
  const env = report.environment ? `, environment ${code(report.environment)}` : '';
  const out = [
    `## reqflow ${report.findings ? 'explore' : 'run'}: ${text(project.name)}`,
    '',
    `**${counts}** in ${summary.ms} ms (${code(displayPath(project.rootFile, cwd))}${env})`,
    '',
    '| | operation | request | result | time |',
    '|---|---|---|---|---|',
    ...report.results.map((r) => row(r, report)),
  ];
  if (report.results.length) {
    const outcomes = new Map(report.results.map((r) => [r.operation, r.status]));
    const shown = report.results
      .map((r) => graph.indexOf.get(r.operation))
      .filter((i): i is number => i !== undefined)
      .sort((a, b) => a - b);
    const chart = mermaidGraph(project, graph, { shown, outcomes }).trimEnd();
    const edges = chart.match(/ -->| -\.->| -\. /g)?.length ?? 0;
    if (chart.length <= MERMAID_MAX_TEXT && edges <= MERMAID_MAX_EDGES) out.push('', '```mermaid', chart, '```');
    else out.push('', `(The graph of these ${shown.length} operations is past what Mermaid draws; \`flow graph --format mermaid <operation>\` draws a part.)`);
  }
  const failed = report.results.filter((r) => r.status === 'failed');
  if (failed.length) {
    out.push('', '### Failures');
    for (const r of failed)
      out.push(
        '',
        `<details><summary>${html(r.operation)}: ${html(r.error?.code ?? 'E_FAILED')}</summary>`,
        '',
        fenced(failureMessage(r, cwd)),
        '',
        '</details>',
      );
  }
  if (report.findings?.length) {
    out.push('', '### Findings (flow explore)');
    for (const f of report.findings)
      out.push('', `<details><summary>${html(f.code)} ${html(f.operation)}</summary>`, '', fenced(findingText(f, cwd).trimEnd()), '', '</details>');
  }
  return `${out.join('\n')}\n`;
}

function row(r: OperationResult, report: RunReport): string {
  const op = report.project.operations.get(r.operation);
  const request = op ? code(`${op.method} ${op.path}`) : '';
  const last = r.exchanges.at(-1)?.response?.status;
  let result: string;
  if (r.status === 'passed') result = last === undefined ? 'passed' : String(last);
  else if (r.status === 'skipped') result = `skipped: ${text(r.skippedBecause ?? 'a prerequisite did not pass')}`;
  else result = `${code(r.error?.code ?? 'E_FAILED')} ${code(cut(r.error?.message ?? ''))} at ${code(where(r.error?.loc ?? r.loc, report.cwd))}`;
  const time = r.status === 'skipped' ? '' : `${r.ms} ms`;
  return `| ${MARK[r.status]} | ${code(r.operation)} | ${request} | ${result} | ${time} |`;
}

function cut(s: string): string {
  return s.length > CELL_CHARS ? `${s.slice(0, CELL_CHARS - 1)}…` : s;
}

/** Text in a table cell or a heading, as written: one line, Markdown's punctuation escaped, no HTML. */
function text(s: string): string {
  return html(s.replace(/\r?\n/g, ' ').replace(/[|*_[\]\\`#~]/g, (ch) => `\\${ch}`));
}

/** Text inside an HTML element (<summary>), where Markdown is not read. */
function html(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An inline code span that holds any text: fenced by more backticks than it contains in a row. */
function code(s: string): string {
  const one = s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  const run = Math.max(0, ...(one.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(run + 1);
  const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/** A code block that holds any text. */
function fenced(s: string): string {
  const run = Math.max(2, ...(s.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(run + 1);
  return `${fence}text\n${s}\n${fence}`;
}
