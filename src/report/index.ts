// The reports stage: what a run's results become once the run has ended. Pure functions of a
// RunReport; the CLI only picks them and says where each goes. `default` is the CLI's own
// live output (src/cli/format/run-output.ts), streamed while the run goes on.
import { githubAnnotations } from './github.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import { markdownReport } from './markdown.js';
import type { Finding, FindingStep, RunReport } from './types.js';

export { findingText } from './findings.js';
export { wantsProgress } from './terminal.js';
export { mermaidGraph } from './mermaid.js';
export { githubAnnotations, markdownReport };
export type { Finding, FindingStep, RunReport };

export const REPORTER_NAMES = ['default', 'json', 'junit', 'markdown', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** The reporters written after the run, as text; `default` and `github` are lines, the others one document each. */
export const DOCUMENT_REPORTERS: Record<'json' | 'junit' | 'markdown', (report: RunReport) => string> = {
  json: jsonReport,
  junit: (report) => junitReport(report),
  markdown: markdownReport,
};
export { assertLine, emptyListHint, errorText, failureDetails, failureMessage, where } from './failure-text.js';
export { displayPath } from '../project/index.js';
export { workflowCommand } from './github.js';
