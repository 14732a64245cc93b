// reqflow's library API: what a user needs to load, lint, run and import a project, as README's
// "Library API" documents it. Internals the CLI and the plugin share stay behind the stages'
// own index.ts files; test/public-api.test.ts keeps this list short (40 names at most) and
// documented.

// load and lint
export { loadProject, type LoadOptions, type Project, type Resource, type Operation, type Diagnostic } from './project/index.js';
export { lint, format, fixProject, type LintResult, type FormatName, type FixResult } from './lint/index.js';
export { buildGraph, scheduleOrder, type ProjectGraph } from './graph/index.js';
// open and run
export { openProject, type OpenOptions, type OpenedProject, type ProjectProblem } from './open/index.js';
export {
  createRunner,
  type Runner,
  type RunnerOptions,
  type OperationResult,
  type OperationStatus,
  type Exchange,
  type RequestRecord,
  type ResponseRecord,
  type AssertRecord,
  type RunSummary,
  type RunEvent,
} from './runner/index.js';
// import
export { importApi, writeProject, type ImportOptions, type ImportResult } from './import/index.js';
// errors: match on `code` (docs/design.md#errors-by-code)
export { FlowError, hasCode, ERROR_CODES, type ErrorCode } from './errors.js';
