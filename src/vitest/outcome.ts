// How a project's problems and an operation's result become a test outcome. Shared by the
// generated suites and the `flowTest` fixture, so both fail and skip the same way.
import type { TestContext } from 'vitest';
import { workflowCommand } from '../report/index.js';
import type { OperationResult } from '../runner/index.js';
import { failureError, prerequisiteFailure } from './failure.js';

/** `::warning file=…,line=…::…` (src/report's workflow command, as `flow run --reporter github` writes it). */
function githubWarning(message: string, loc: { file: string; line: number; col: number }, cwd: string = process.env.GITHUB_WORKSPACE || process.cwd()): string {
  return workflowCommand('warning', loc, message, cwd);
}

/** What a file's tests have reported so far: a skip may only point at a failure shown elsewhere. */
export interface Reported {
  /** operations whose own test (or flow.check) has run in this file */
  ids: Set<string>;
  result(id: string): OperationResult | undefined;
}

/**
 * A result as the outcome of a test: pass, skip with the reason, or throw the coded failure.
 * A test skipped for a failed prerequisite fails instead when that prerequisite's own test
 * did not run in this file (`-t`, a custom test): else the failure would show nowhere and the
 * run would be green on a broken API.
 */
export async function settle(result: OperationResult, ctx: Pick<TestContext, 'skip' | 'annotate'>, reported?: Reported): Promise<void> {
  reported?.ids.add(result.operation);
  const blocking =
    result.status === 'skipped' && result.blockedBy && reported && !reported.ids.has(result.blockedBy) ? reported.result(result.blockedBy) : undefined;
  if (blocking?.status === 'failed') {
    reported!.ids.add(blocking.operation);
    throw prerequisiteFailure(result.operation, blocking);
  }
  // Printed during the test, Vitest shows a hook's console output under the test (and in JUnit's system-out).
  for (const log of result.hookLogs ?? []) for (const line of log.lines) console.log(`${log.hook} hook: ${line}`);
  // Contract warnings (`contract: 'warn'`, undocumented requests): under the test in the
  // terminal, and as annotations (a JUnit property, a GitHub Actions warning).
  for (const w of result.warnings ?? []) {
    console.warn(`${w.code}: ${w.message}`);
    // Vitest's github-actions reporter shows only annotations located in the test file, and
    // a flow test's code is ours: in GitHub Actions, the workflow command is written here.
    if (process.env.GITHUB_ACTIONS === 'true') console.warn(githubWarning(`${w.code}: ${w.message}`, result.loc));
    await ctx.annotate(`${w.code}: ${w.message}`, 'warning');
  }
  if (result.status === 'passed') return;
  if (result.status === 'skipped') {
    const reason = result.skippedBecause ?? 'a prerequisite did not pass';
    // JUnit writes no reason for a skip; an annotation becomes a <property> of the testcase.
    await ctx.annotate(reason, 'skipped');
    ctx.skip(reason);
  }
  throw failureError(result);
}
