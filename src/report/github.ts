// GitHub Actions: a workflow command per failed operation (`::error`) and per warning on a
// result (`::warning`, e.g. a contract check in warn mode), pointing at the YAML, so it shows on
// the file in the pull request. (The step summary is the Markdown report; the CLI appends it
// to $GITHUB_STEP_SUMMARY.) Escaped as @actions/core does, with lint's github format's escapes.
import { escapeData, escapeProperty } from '../lint/index.js';
import { displayPath, type Loc } from '../project/index.js';
import { failureMessage } from './failure-text.js';
import type { RunReport } from './types.js';

/** @param workspace paths are given relative to it (GITHUB_WORKSPACE, the checkout) */
export function githubAnnotations(report: RunReport, workspace: string = report.cwd): string {
  let out = '';
  for (const r of report.results) {
    if (r.status === 'failed') {
      const title = `${r.operation}: ${r.error?.code ?? 'E_FAILED'}`;
      out += `${workflowCommand('error', r.error?.loc ?? r.loc, failureMessage(r, report.cwd), workspace, title)}\n`;
    }
    for (const w of r.warnings ?? []) out += `${workflowCommand('warning', r.loc, `${w.code}: ${w.message}`, workspace, `${r.operation}: ${w.code}`)}\n`;
  }
  return out;
}

/** `::error file=…,line=…,col=…[,title=…]::message`, the file relative to `workspace`. */
export function workflowCommand(kind: 'error' | 'warning', loc: Loc, message: string, workspace: string, title?: string): string {
  const file = displayPath(loc.file, workspace);
  const props = [`file=${escapeProperty(file)}`, `line=${loc.line}`, `col=${loc.col}`, ...(title ? [`title=${escapeProperty(title)}`] : [])];
  return `::${kind} ${props.join(',')}::${escapeData(message)}`;
}
