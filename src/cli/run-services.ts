// What `flow run --server` and `--openapi` add to a run: the API under test, started for the
// run and stopped after, and the contract every response is checked against. The work is the
// library's (src/server, src/contract); this module reads the options.
import type { Project } from '../project/index.js';
import type { ContractMode } from '../contract/index.js';
import type { Redactor } from '../redact/index.js';
import type { ManagedServer, WaitState } from '../server/index.js';
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

/** `flow run --server`: what to start, and where it answers. */
export interface RunServer {
  command: string;
  url: string;
  /** the url came from --server-url (else from baseUrl: any HTTP answer means up) */
  named: boolean;
  cwd: string;
  processEnv: NodeJS.ProcessEnv;
}

/**
 * @param onExit told when the server exits during the run (its last output lines included)
 * @param redactor the run's: the server's lines are shown through it
 * @param onWaitLine after each try while it starts: the terminal's progress line, cut to `columns`
 */
export async function startRunServer(
  run: RunServer,
  onExit: (message: string) => void,
  redactor: Redactor,
  onWaitLine?: (line: string) => void,
  columns?: () => number | undefined,
): Promise<ManagedServer> {
  // loaded only when --server is given (start-up time)
  const { startServer, waitingLine } = await import('../server/index.js');
  const options = { command: run.command, url: run.url, anyAnswer: !run.named, env: run.processEnv as Record<string, string> };
  const onWait = onWaitLine && ((state: WaitState) => onWaitLine(waitingLine(state, columns?.())));
  return startServer(options, run.cwd, { onExit, redactor, onWait });
}

/** The one line redrawn in place on a terminal while the server starts; `clear` removes it. */
export function waitingProgress(write: (text: string) => void): { draw: (line: string) => void; clear: () => void } {
  let drawn = false;
  return {
    draw: (line) => {
      drawn = true;
      write(`\r\x1b[K${line}`);
    },
    clear: () => {
      if (drawn) write('\r\x1b[K');
      drawn = false;
    },
  };
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
