// What every reporter of `flow run` reads: the results of a run (plain data, already redacted by
// the runner) and the project and graph they came from. Built once, after the run ends.
import type { ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import type { OperationResult, RequestRecord, ResponseRecord } from '../runner/index.js';

export interface RunReport {
  project: Project;
  graph: ProjectGraph;
  /** the environment the run used */
  environment?: string;
  /** the operations asked for (every one for --all) */
  asked: string[];
  /** each operation that ended, once (the last run of a force: true one), in the order they ended */
  results: OperationResult[];
  /** every end counted, each run of a force: true operation included, as the terminal summary does */
  summary: { passed: number; failed: number; skipped: number; ms: number };
  startedAt: Date;
  /** file paths in reports are relative to it */
  cwd: string;
  /** `flow explore`'s findings, each reported as a failure */
  findings?: Finding[];
}

/**
 * A problem `flow explore` found (src/explore), as the reporters show it: a code, the
 * operation, one sentence, and the shrunk sequence of exchanges that shows it (redacted by
 * the runner). `flow run`'s reporters take findings next to results, so CI shows them as failures.
 */
export interface Finding {
  /** E_SERVER_ERROR, E_CONTRACT, E_ACCEPTS_INVALID, E_USE_AFTER_DELETE, E_NOT_PERSISTED; with --authz E_AUTHZ_OTHER_READ, E_AUTHZ_OTHER_WRITE, E_AUTHZ_ANONYMOUS, E_AUTHZ_ROLE */
  code: string;
  /** the project operation at fault, `<resource>.<operation>` */
  operation: string;
  message: string;
  /** the shortest sequence found, in order; the last step shows the problem */
  steps: FindingStep[];
  /** the fast-check seed of the run that found it */
  seed: number;
  /** the replay file written for it (--out), absolute */
  file?: string;
}

export interface FindingStep {
  operation: string;
  /** what the step does to the resource: create, read, update, delete, or invalid (a body that breaks the schema) */
  role: 'create' | 'read' | 'update' | 'delete' | 'invalid';
  /** `flow explore --authz`: the actor it was sent as; null: with no credentials at all */
  actor?: string | null;
  /** the body as sent, before rendering: generated values, and the project's own `{{…}}` where it wrote them */
  body?: unknown;
  /** query values drawn for the step, added to the operation's own */
  query?: Record<string, unknown>;
  request?: RequestRecord;
  response?: ResponseRecord;
}
