// The draft project: what inference decided, before it is written as a plan and files.
// Plain data; emit/ turns it into YAML documents and Markdown.
import type { RequestFate } from '../check/coverage.js';
import type { Operation, TemplateValue } from '../../project/index.js';
import type { Evidence, ObservedApi, ObservedOperation } from '../observed.js';

/** The request part is the model's own (project/types.ts); status and extractions are kept in the draft's simpler form. */
export interface DraftOperation extends Pick<
  Operation,
  'resource' | 'name' | 'method' | 'path' | 'actor' | 'dependsOn' | 'headers' | 'queryParams' | 'body' | 'bodyForm'
> {
  expectStatus: number[];
  /** variable -> `$.data…` path; the resource's variables (docs/format.md#extractions-per-resource) */
  extract: Record<string, string>;
  /** `_provenance.evidence`: key -> justification */
  evidence: Record<string, string>;
  source: ObservedOperation;
}

export interface DraftResource {
  name: string;
  /** file stem: `resources/<plural>.yaml` */
  plural: string;
  description?: string;
  operations: DraftOperation[];
  /** why this resource exists (written as a comment) */
  evidence: string;
}

export interface DraftActor {
  name: string;
  description: string;
  auth: Record<string, TemplateValue>;
  injectHeaders?: Record<string, string>;
  /** plan: what the login returns */
  loginReturns: string;
  evidence: Evidence[];
}

export interface DraftVariable {
  name: string;
  kind: 'plain' | 'secret';
  /** plain: the value written in the environment file; secret: only referenced as {{secret.NAME}} */
  value?: TemplateValue;
  notes: string;
}

export interface OpenQuestion {
  text: string;
  /** what it blocks: operation ids or input operation keys, actor names */
  blocks: string[];
  evidence?: Evidence;
}

export interface VariableFlow {
  variable: string;
  producedBy: string;
  consumedBy: string[];
}

export interface Draft {
  api: ObservedApi;
  projectName: string;
  environment: string;
  baseUrl: TemplateValue;
  baseUrlNote: string;
  variables: DraftVariable[];
  /** keychain secrets the project references as {{secret.NAME}} */
  secrets: DraftVariable[];
  actors: DraftActor[];
  resources: DraftResource[];
  questions: OpenQuestion[];
  flows: VariableFlow[];
  /** notes for the plan that are neither questions nor rows (alternatives chosen, skips) */
  notes: PlanNote[];
  /** what became of each request of the inputs (coverage) */
  requests: RequestFate[];
}

/** The five plan sections of docs/format.md#the-plan; a note is written at the end of the one it explains. */
export type PlanSection = 'actors' | 'resources' | 'variables' | 'environment' | 'questions';

/** Each section's heading, in the plan's order: the plan writes them and an answer's check looks for them. */
export const PLAN_HEADINGS: Readonly<Record<PlanSection, string>> = {
  actors: 'Actors',
  resources: 'Resources and operations',
  variables: 'Variable flow',
  environment: 'Environment variables',
  questions: 'Open questions',
};

export interface PlanNote {
  section: PlanSection;
  text: string;
}
