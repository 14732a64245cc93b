// GitHub Actions: one `::error` workflow command per failed operation, pointing at the YAML, so
// the failure shows on the file in the pull request. (The step summary is the Markdown report;
// the CLI appends it to $GITHUB_STEP_SUMMARY.)
import path from 'node:path';
import { failureMessage } from './failure-text.js';
import type { RunReport } from './types.js';

/** @param workspace paths are given relative to it (GITHUB_WORKSPACE, the checkout) */
export function githubAnnotations(report: RunReport, workspace: string = report.cwd): string {
  let out = '';
  for (const r of report.results) {
    if (r.status !== 'failed') continue;
    const loc = r.error?.loc ?? r.loc;
    const file = path.relative(workspace, loc.file).split(path.sep).join('/');
    const props = { file, line: loc.line, col: loc.col, title: `${r.operation}: ${r.error?.code ?? 'E_FAILED'}` };
    const list = Object.entries(props).map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
    out += `::error ${list}::${escapeData(failureMessage(r, report.cwd))}\n`;
  }
  return out;
}

// The escapes of @actions/core (toCommandValue / escapeData / escapeProperty).
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
