// The shapes calibrate hands to the CLI: proposals (each proven by a response), open
// questions, and the operations not run. Request and response facts come from the runner's
// records, which it has already redacted.
import type { HttpMethod, TemplateValue } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';

/** One edit to the project, as small as the response proves. */
export type Edit =
  | { kind: 'expect_status'; operation: string; from?: number[]; to: number[] }
  /** `from` absent: a new extraction; `source: regex`, a regular expression over the body (its capture group) */
  | { kind: 'extract'; operation: string; name: string; from?: string; to: string; source?: 'regex' }
  | { kind: 'actor'; operation: string; to: string }
  /** a JSON body for a write sent without one (a 415), with the fields the description requires */
  | { kind: 'body'; operation: string; value: TemplateValue }
  /** a body field (dotted: nested keys) a 400/422 named, with a value */
  | { kind: 'body_field'; operation: string; field: string; value: TemplateValue }
  /** a query parameter the description declares and the request did not send, after a 400/422 */
  | { kind: 'query_param'; operation: string; name: string; value: TemplateValue }
  /** an id of the path given from outside (`{{env.bucket_id}}`) replaced by its producer's (`{{bucket.id}}`) */
  | { kind: 'path_ref'; operation: string; from: string; to: string }
  /** a new actor file for the login a 401's WWW-Authenticate asks for, and the pattern that loads it */
  | { kind: 'login'; actor: string; scheme: 'basic' | 'bearer'; variable?: string; secret: string; pattern?: string }
  /** an operation added to `depends_on`: a list run after a create of its resource finds what it lists */
  | { kind: 'depends_on'; operation: string; to: string }
  /** `force: true` on a create: each operation that needs it gets an instance of its own (own-instance.ts) */
  | { kind: 'force'; operation: string }
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
  /** the <SET_VIA_--var> variables it needs and nobody gave */
  variables?: string[];
}

/** One request calibrate sent (a round's or a try's), as the runner recorded it (redacted). */
export interface Probe {
  /** `round 2`, or what a try tested (`try item.create as admin`) */
  purpose: string;
  method: HttpMethod;
  url: string;
  status?: number;
}

/** A query parameter the description declares for an operation (--openapi). */
export interface DeclaredQuery {
  name: string;
  required: boolean;
  /** its schema, with the parameter's own example */
  schema: Record<string, unknown>;
}

export interface SafetyFlags {
  writes: boolean;
  destructive: boolean;
  /** the <SET_VIA_--var> variables the operations in `order` need and nobody gave */
  unsetVariables?: (project: import('../project/index.js').Project, order: string[]) => string[];
}

export interface CalibrationPlan {
  /** the asked operations that run (their prerequisites come with them) */
  run: string[];
  /** every operation that will be sent, in schedule order, prerequisites included */
  order: string[];
  notRun: NotRun[];
  /** producers not asked for, run because an asked operation's path holds an id they create */
  added: Array<{ operation: string; for: string }>;
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
  /** every request sent, rounds and tries, in order */
  probes: Probe[];
}
