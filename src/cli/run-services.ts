// What `flow run --server` and `--openapi` add to a run: the API under test, started for the
// run and stopped after, and the contract every response is checked against. The work is the
// library's (src/server, src/contract); this module reads the options.
import type { Project } from '../project/index.js';
import type { ContractMode } from '../contract/index.js';
import type { Redactor } from '../redact/index.js';
import type { ManagedServer } from '../server/index.js';
import type { OperationResult, ResponseCheck } from '../runner/index.js';
import type { OptionTable } from './options.js';

/** flow run's rows for these services (its option table: they parse and show in --help). */
export const SERVICE_OPTIONS = {
  server: {
    type: 'string',
    arg: '<command>',
    help: ['start the API under test for this run (a shell command), wait', 'until it answers, stop it (and all it started) after'],
  },
  'server-url': { type: 'string', arg: '<url>', help: ['what must answer before the run (default: baseUrl); its origin', 'becomes baseUrl'] },
  openapi: { type: 'string', arg: '<file>', help: 'check every response against this OpenAPI 3.0/3.1 (or Swagger 2.0) description' },
  contract: { type: 'string', default: 'fail', arg: '<mode>', help: 'fail (default) or warn: what a response that breaks it does' },
} satisfies OptionTable;

export interface ServiceArgs {
  server?: string;
  'server-url'?: string;
  openapi?: string;
  contract: string;
}

/** A usage problem, or undefined. */
export function serviceUsage(o: ServiceArgs): string | undefined {
  if (o.contract !== 'fail' && o.contract !== 'warn') return `--contract is fail or warn; got "${o.contract}"`;
  if (o['server-url'] !== undefined && o.server === undefined) return '--server-url goes with --server';
  if (o['server-url'] !== undefined && !/^https?:\/\//.test(o['server-url'])) return `--server-url must be an http(s) URL; got "${o['server-url']}"`;
  return undefined;
}

/**
 * The URL `--server` waits for: --server-url, else baseUrl (--var, FLOW_VAR_baseUrl, or a
 * literal in the environment). Undefined when there is none to wait for.
 */
export function serverUrl(
  o: ServiceArgs,
  project: Project,
  env: string | undefined,
  vars: Record<string, string>,
  processEnv: NodeJS.ProcessEnv,
): string | undefined {
  if (o['server-url']) return o['server-url'];
  const chosen = project.environments.get(env ?? project.defaultEnvironment ?? '') ?? project.environments.values().next().value;
  const literal = chosen?.variables.baseUrl;
  const base = vars.baseUrl ?? processEnv.FLOW_VAR_baseUrl ?? (typeof literal === 'string' ? literal : undefined);
  return base && /^https?:\/\//.test(base) ? base : undefined;
}

/**
 * @param onExit told when the server exits during the run (its last output lines included)
 * @param redactor the run's: the server's lines are shown through it
 */
export async function startRunServer(
  command: string,
  url: string,
  cwd: string,
  processEnv: NodeJS.ProcessEnv,
  onExit: (message: string) => void,
  redactor: Redactor,
): Promise<ManagedServer> {
  const { startServer } = await import('../server/index.js');
  return startServer({ command, url, env: processEnv as Record<string, string> }, cwd, { onExit, redactor });
}

export async function runContract(file: string, mode: string, cwd: string): Promise<ResponseCheck> {
  const { loadContract } = await import('../contract/index.js');
  return (await loadContract(file, mode as ContractMode, cwd)).check;
}

/** A warning line per contract warning of a result (`contract warn`, undocumented requests). */
export function formatWarnings(r: OperationResult, color: boolean): string {
  let out = '';
  for (const w of r.warnings ?? []) out += `    ${color ? `\x1b[33m${w.code}\x1b[39m` : w.code}  ${w.message}\n`;
  return out;
}
