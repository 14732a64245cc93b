// The shapes calibrate hands to the CLI: proposals (each proven by a response), open
// questions, and the operations not run. Request and response facts come from the runner's
// records, which it has already redacted.
import type { HttpMethod } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';

/** One edit to the project, as small as the response proves. */
export type Edit =
  | { kind: 'expect_status'; operation: string; from?: number[]; to: number[] }
  | { kind: 'extract'; operation: string; name: string; from: string; to: string }
  | { kind: 'actor'; operation: string; to: string }
  /** the actor's credential header in the other standard form (`Bearer <token>` / the raw token) */
  | { kind: 'header_form'; actor: string; place: 'inject' | 'api_key'; header: string; from: string; to: string };

/** The answer that proves an edit (or raises a question): redacted, a bounded excerpt. */
export interface Observed {
  method: HttpMethod;
  /** the operation's path as written (`/items/{{item.id}}`) */
  path: string;
  /** the URL sent (redacted) */
  url?: string;
  status?: number;
  excerpt?: string;
}

export interface Proposal {
  edit: Edit;
  operation: string;
  observed: Observed;
  /** one sentence: what the answer shows */
  why: string;
}

export interface OpenQuestion {
  operation: string;
  observed?: Observed;
  question: string;
}

export interface NotRun {
  operation: string;
  why: string;
}

export interface SafetyFlags {
  writes: boolean;
  destructive: boolean;
}

export interface CalibrationPlan {
  /** the asked operations that run (their prerequisites come with them) */
  run: string[];
  /** every operation that will be sent, in schedule order, prerequisites included */
  order: string[];
  notRun: NotRun[];
}

export interface Calibration {
  plan: CalibrationPlan;
  proposals: Proposal[];
  questions: OpenQuestion[];
  /** the final round's result of every operation that ran, in schedule order */
  results: OperationResult[];
  /** `METHOD path -> status` of every operation that passed in the final round */
  observed: Map<string, string>;
  /** how many times the operations were run (a round per set of proposals) */
  rounds: number;
}
