// Every check of an import, run on every import (and on any project with `flow import --check`):
// the self-check of docs/format.md#self-check, the grounding check (docs/format.md#r1) and the leak check.
import { isSecretRef } from '../../project/index.js';
import type { EmittedFile } from '../emit/files.js';
import type { ObservedApi } from '../observed.js';
import type { CheckFinding } from './finding.js';
import { checkCoverage, type RequestFate } from './coverage.js';
import { checkGrounding } from './grounding.js';
import { checkLeaks } from './leaks.js';
import { checkCycles, checkReferences } from './refs.js';
import { checkShape } from './shape.js';
import { viewOfEmitted, type ProjectView } from './view.js';

export interface CheckContext {
  /** the observed input: enables the grounding and leak checks */
  api?: ObservedApi;
  plan?: string;
  /** what became of each request (an import's own draft): enables the coverage check */
  requests?: RequestFate[];
}

/** The self-check of docs/format.md#self-check (plus docs/format.md#r3, docs/format.md#r4, docs/format.md#r5) on a project view. */
export function selfCheck(view: ProjectView): CheckFinding[] {
  const secretEnv = new Set<string>();
  for (const env of view.environments) for (const [k, v] of Object.entries(env.variables)) if (isSecretRef(v)) secretEnv.add(k);
  return [...checkReferences(view), ...checkShape(view, secretEnv), ...checkCycles(view)];
}

export function checkView(view: ProjectView, ctx: CheckContext = {}): CheckFinding[] {
  const out = selfCheck(view);
  if (ctx.api) {
    out.push(...checkGrounding(view, ctx.api));
    out.push(...checkLeaks(view.files, ctx.plan, ctx.api.credentials));
  }
  return out;
}

export function checkEmitted(files: EmittedFile[], ctx: CheckContext = {}): CheckFinding[] {
  const out = checkView(viewOfEmitted(files), ctx);
  if (ctx.requests && ctx.api) {
    const inputs = ctx.api.inputs.map((i) => ({ file: i.file, found: i.operationCount, scanned: i.scanned }));
    out.push(...checkCoverage(ctx.requests, inputs, files));
  }
  return out;
}

export { CHECK_CODES, formatFinding, type CheckFinding } from './finding.js';
export { viewOfDirectory, withScratchProject, type ProjectView } from './view.js';
