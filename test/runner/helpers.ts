// Shared by the runner tests: a project written to a temporary directory, loaded by the
// real loader and run by a real runner; every runner is closed by `closeRunners()`.
import { expect } from 'vitest';
import { loadProject } from '../../src/project/index.js';
import type { Project } from '../../src/project/types.js';
import { createRunner, type Runner } from '../../src/runner/index.js';
import type { OperationResult, RunEvent, RunnerOptions, RunSummary } from '../../src/runner/types.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const open: Runner[] = [];

export interface Loaded {
  runner: Runner;
  project: Project;
  dir: string;
  /** every event the runner emitted, in order */
  events: RunEvent[];
}

/** Write, load (no loader diagnostics allowed) and make a runner; FLOW_SECRET_* come from `secrets`. */
export async function load(files: Record<string, string>, options: RunnerOptions & { secrets?: Record<string, string> } = {}): Promise<Loaded> {
  const dir = await writeProject(files);
  const project = await loadProject(dir);
  expect(project.diagnostics).toEqual([]);
  const events: RunEvent[] = [];
  const { secrets = {}, ...rest } = options;
  const processEnv = { ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [`FLOW_SECRET_${k}`, v])), ...rest.processEnv };
  const runner = createRunner(project, {
    ...rest,
    processEnv,
    onEvent: (e) => {
      events.push(e);
      rest.onEvent?.(e);
    },
  });
  open.push(runner);
  return { runner, project, dir, events };
}

export async function closeRunners(): Promise<void> {
  await Promise.all(open.splice(0).map((r) => r.close()));
  await cleanProjects();
}

/** The result of one operation in a summary (fails the test when it is absent). */
export function resultOf(summary: RunSummary, op: string): OperationResult {
  const r = summary.results.find((x) => x.operation === op);
  expect(r, `no result for ${op}`).toBeDefined();
  return r!;
}

/** `[operation, status, error code]` of every result, for one readable assertion. */
export function outcomes(summary: RunSummary): Array<[string, string, string | undefined]> {
  return summary.results.map((r) => [r.operation, r.status, r.error?.code]);
}

/** flow.yaml importing environments/, actors/ and resources/ (the multi-file layout). */
export const ROOT = 'version: 1\nname: runner-test\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n';

/** An environment file; values are written as YAML scalars (`!secret X` stays a tag). */
export function envFile(variables: Record<string, string>, name = 'test'): string {
  const lines = Object.entries(variables).map(([k, v]) => `  ${k}: ${v.startsWith('!secret ') || v === '<SET_VIA_--var>' ? v : JSON.stringify(v)}`);
  return `name: ${name}\nvariables:\n${lines.join('\n')}\n`;
}
