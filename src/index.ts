// reqflow's library API: what the CLI and the Vitest plugin are built on.
export * from './project/index.js';
export { lint, format, FORMATS, CODES, type LintResult, type FormatName } from './lint/index.js';
export { buildGraph, findCycles, prerequisites, scheduleOrder, type ProjectGraph } from './graph/index.js';
export { createRunner, type Runner } from './runner/index.js';
export { openProject, type OpenedProject, type OpenOptions, type ProblemKind, type ProjectProblem } from './open/index.js';
export type * from './runner/index.js';
export { ERROR_CODES, FlowError, hasCode, isErrorCode, type ErrorCode } from './errors.js';
export { importApi } from './import/index.js';
export { fixProject } from './lint/index.js';
