// `flow run <resource.operation>...`: run operations with every prerequisite first.
import { parseCommandArgs, usageError } from '../usage.js';
import { scheduleOrder, shardParts, splitProject, type ProjectGraph } from '../../graph/index.js';
import type { Project } from '../../project/index.js';
import { createRedactor } from '../../redact/index.js';
import { recordVerified } from '../../runner/index.js';
import { envSecretValues } from '../../runtime/index.js';
import { reportingWriteErrors } from '../write-failure.js';
import { formatEvent, formatResult, formatSummary, type RunFormatOptions } from '../format/run-output.js';
import { lintLines } from '../format/lint-lines.js';
import { parseShard } from '../args.js';
import { openLiveProject, parseVars } from '../open-live-project.js';
import { brakeLine, CACHE_OPTIONS, cacheOptions, optionHelp, parseRate, RATE_OPTION, VAR_OPTION, type OptionTable } from '../options.js';
import { describeUnset, unsetVariables } from '../../runner/index.js';
import { formatWarnings, runContract, SERVICE_OPTIONS, serverUrl, serviceUsage, startRunServer, waitingProgress } from '../run-services.js';
import { bufferedWriter, EXIT, type CliIO, type Command } from '../io.js';
import { allToFiles, chooseReporters, reportPaths, writeReports } from '../reporters.js';
import { wantsProgress } from '../../report/index.js';
import { createProgress } from '../progress.js';
import type { CleanupReport } from '../../runner/index.js';
import { formatCleanup } from '../format/cleanup.js';
import { onInterrupt } from '../interrupt.js';

const OPTIONS = {
  project: { type: 'string', short: 'p', default: '.', arg: '<dir>', help: 'project directory holding flow.yaml (default: .)' },
  env: { type: 'string', arg: '<name>', help: ['environment to use (default: default_environment, else the first', 'one declared)'] },
  ...VAR_OPTION,
  all: { type: 'boolean', default: false, help: 'run every operation, in schedule order' },
  shard: {
    type: 'string',
    arg: '<k/n>',
    help: ['run the k-th of n shards of every operation: the parts Vitest', 'splits a project into, dealt to n shards of about one size (n <= 32)'],
  },
  concurrency: { type: 'string', default: '1', arg: '<n>', help: 'independent operations run at once (default 1)' },
  ...RATE_OPTION,
  'dry-run': { type: 'boolean', default: false, help: 'print the plan (order, method, path, why) and send nothing' },
  keep: {
    type: 'boolean',
    default: false,
    help: ['leave what the run created, and any switch it flipped, in place', '(for debugging); by default the run cleans them up'],
  },
  record: {
    type: 'boolean',
    default: false,
    help: ['after the run, set _provenance.verified_against: live_capture', 'on the operations that passed (files edited in place)'],
  },
  ...SERVICE_OPTIONS,
  verbose: { type: 'boolean', default: false, help: ['print request and response headers and bodies, and what hooks', 'print (secrets as ***)'] },
  quiet: { type: 'boolean', short: 'q', default: false, help: 'a failure is its code and file:line only: no request or response under it' },
  strict: { type: 'boolean', default: false, help: 'lint warnings are errors: the run stops before sending anything' },
  'no-color': { type: 'boolean', default: false, help: 'plain output' },
  ...CACHE_OPTIONS,
  reporter: {
    type: 'string',
    multiple: true,
    default: [] as string[],
    arg: '<name>',
    help: [
      'default (the lines above), json, junit, markdown, github (::error',
      'annotations, and the markdown report appended to',
      '$GITHUB_STEP_SUMMARY when set); repeatable (default: default)',
    ],
  },
  'output-file': {
    type: 'string',
    multiple: true,
    default: [] as string[],
    arg: '<name=path>',
    help: ["write that reporter's report to a file instead of stdout", '(json, junit, markdown); repeatable'],
  },
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

const HELP = `Usage: flow run <resource.operation>... [options]
       flow run --all [options]
       flow run --shard <k/n> [options]

Runs each operation asked for; every prerequisite (implicit from {{resource.field}}
references, explicit from depends_on) runs first, once, and is reused.

Options:
${optionHelp(OPTIONS)}
On a terminal, a live line on stderr shows done/total, what runs and the time (never
on a pipe or under CI=true).

Secrets come from FLOW_SECRET_<NAME>, then the OS keychain (flow secret set NAME).
Lint warnings (a misspelt key, say) are printed first, one line each; --strict makes
them errors.

An operation that needs a <SET_VIA_--var> value nobody gave (itself, its actor or a
prerequisite) is skipped, with the --var it needs; the others run.

After the run, what it created is deleted with the project's own delete operations and
any switch it flipped is written back (--keep leaves them); Ctrl-C cleans up too.

Exit codes: 0 every operation asked for passed, 1 a failure or skip (or lint errors;
an operation skipped for a --var not given included), 2 usage error (unknown option,
operation or environment, no such project or no flow.yaml in it, baseUrl not given,
or no operation asked for can run without a --var nobody gave: nothing is sent).
`;

export default (async function run(argv: string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs({ name: 'run', help: HELP }, { args: argv, allowPositionals: true, options: OPTIONS }, io);
  if (typeof args === 'number') return args;
  const { values: o, positionals } = args;
  const usage = (message: string) => usageError(io, 'run', message);
  const concurrency = Number(o.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) return usage(`--concurrency must be a whole number from 1; got "${o.concurrency}"`);
  const brake = parseRate(o.rate);
  if (typeof brake === 'string') return usage(brake);
  const vars = parseVars(o.var);
  if (typeof vars === 'string') return usage(vars);
  const serviceProblem = serviceUsage(o);
  if (serviceProblem) return usage(serviceProblem);
  const shard = o.shard === undefined ? undefined : parseShard(o.shard);
  if (typeof shard === 'string') return usage(shard);
  const whole = o.all || shard !== undefined;
  if (!whole && positionals.length === 0) return usage('name at least one operation (resource.operation), or --all');
  if (whole && positionals.length) {
    return usage(
      `${o.all ? '--all' : '--shard'} runs every operation: name operations (${positionals.join(', ')}) or give ${o.all ? '--all' : '--shard'}, not both`,
    );
  }
  const reporters = chooseReporters(o.reporter, o['output-file'], io.cwd);
  if (typeof reporters === 'string') return usage(reporters);
  const lines = reporters.some((r) => r.name === 'default');

  const fmt: RunFormatOptions = { cwd: io.cwd, verbose: o.verbose, quiet: o.quiet, color: io.isTTY && !o['no-color'] && !io.env.NO_COLOR };
  // lint's warnings come first, where the results are read
  const warn = (diagnostics: Parameters<typeof lintLines>[0]) => (lines ? io.stdout : io.stderr)(lintLines(diagnostics, io.cwd));
  const opened = await openLiveProject('run', o, positionals, io, cacheOptions(o, io.env, io.cwd), warn);
  if (typeof opened === 'number') return opened;
  const { project, graph } = opened;
  // a shard: the parts of the project (the Vitest plugin's test files) dealt to this shard
  const asked = shard
    ? shardParts(splitProject(graph), shard.index, shard.count).flatMap((p) => p.operations)
    : o.all
      ? [...project.operations.keys()]
      : positionals;
  if (shard && asked.length === 0) {
    io.stdout(`shard ${shard.index}/${shard.count}: no operations (the project has fewer parts than shards)\n`);
    return EXIT.ok;
  }
  if (!o.env && !project.defaultEnvironment && project.environments.size > 1) {
    // Not chosen anywhere: say which one, rather than run silently against the first.
    const first = project.environments.keys().next().value as string;
    io.stderr(
      `flow run: environment "${first}", the first of ${project.environments.size} declared (choose one with --env, or default_environment in flow.yaml)\n`,
    );
  }
  const plan = scheduleOrder(graph, asked);
  // --server: what it answers at is known now, and its origin is the run's baseUrl
  const readyUrl = o.server === undefined ? undefined : serverUrl(o, project, o.env, vars, io.env);
  if (o.server !== undefined && !readyUrl) return usage('--server needs the URL the server answers at: --server-url, or a baseUrl (--var baseUrl=…)');
  if (readyUrl && !vars.baseUrl && !io.env.FLOW_VAR_baseUrl) vars.baseUrl = new URL(readyUrl).origin;
  const unset = unsetVariables(project, graph, plan, o.env, vars, io.env);

  if (o['dry-run']) {
    io.stdout(dryRun(project, graph, asked, plan));
    if (unset.length) io.stdout(`\nBefore it can run:\n${describeUnset(unset).replace(/^/gm, '  ')}\n`);
    return EXIT.ok;
  }
  // What can run runs; an operation that needs a --var nobody gave is skipped, named with it (exit
  // 1). Nothing is sent when nothing could run, or when baseUrl itself is missing (exit 2).
  const blocked = unset.length ? asked.filter((id) => unsetVariables(project, graph, scheduleOrder(graph, [id]), o.env, vars, io.env).length) : [];
  if (unset.some((v) => v.name === 'baseUrl') || (blocked.length && blocked.length === asked.length)) return usage(`${describeUnset(unset)}\nnothing was sent`);

  const coded = (err: unknown) => `${(err as { code?: string }).code ?? 'E_FAILED'}: ${(err as Error).message}`;
  let responseCheck;
  let server: Awaited<ReturnType<typeof startRunServer>> | undefined;
  try {
    if (o.openapi !== undefined) responseCheck = await runContract(o.openapi, o.contract, io.cwd);
  } catch (err) {
    return usage(`--openapi: ${coded(err)}`);
  }
  // One redactor for the run and the server's lines: it knows the FLOW_SECRET_* values the
  // server inherits from the start, and what the run learns (a token the server logs).
  const redactor = createRedactor(envSecretValues(io.env));
  // while the server starts, a terminal shows what was tried and what came back
  const waiting = o.server !== undefined && wantsProgress(io.isTTY, io.env) ? waitingProgress(io.stderr) : undefined;
  try {
    if (o.server !== undefined) {
      const onExit = (m: string) => io.stderr(`flow run: E_SERVER_EXITED: ${m}\n`);
      const run = { command: o.server, url: readyUrl!, named: o['server-url'] !== undefined, cwd: io.cwd, processEnv: io.env };
      server = await startRunServer(run, onExit, redactor, waiting?.draw, () => process.stderr.columns);
    }
  } catch (err) {
    io.stderr(`flow run: ${coded(err)}\nnothing was sent\n`);
    return EXIT.failed;
  } finally {
    waiting?.clear();
  }

  // The live line on a terminal (stderr); stdout's lines clear it and draw it again.
  const progress = wantsProgress(io.isTTY, io.env)
    ? createProgress({ write: io.stderr, total: plan.length, columns: () => process.stderr.columns })
    : undefined;
  const stdout = progress ? progress.around(io.stdout) : io.stdout;
  // Without the default reporter the lines are not even formatted.
  const out = lines ? bufferedWriter(stdout) : { write: () => {}, flush: () => {} };
  const startedAt = new Date();
  // what each running operation is a prerequisite of, for its request lines
  const servedFor = new Map<string, string[]>();
  // every operation that ended, each run of a force: true one included (for the summary)
  const ends = { passed: 0, failed: 0, skipped: 0 };
  // every operation that ran, prerequisites included, in the order they first ended (for --record)
  const ran = new Set<string>();
  const runner = await opened.createRunner({
    redactor,
    env: o.env,
    vars,
    concurrency,
    brake,
    processEnv: io.env,
    responseCheck,
    skipUnset: true,
    // a switch (a write whose path names no instance) is sent only when named on the command line
    named: whole ? [] : positionals,
    onEvent: (event) => {
      progress?.onEvent(event);
      if (event.type === 'operation:start') servedFor.set(event.operation, event.prerequisiteOf);
      else if (event.type === 'request') {
        // Formatted once the next request is on its way (bufferedWriter).
        const prerequisiteOf = servedFor.get(event.operation) ?? [];
        out.write(() => formatEvent(event, fmt, prerequisiteOf));
      } else if (event.type === 'operation:end') {
        const result = event.result;
        ran.add(result.operation);
        ends[result.status]++;
        out.write(() => formatResult(result, fmt) + formatWarnings(result, fmt.color));
      }
    },
  });
  let summaryResult;
  let cleanup: CleanupReport | undefined;
  const stopServer = () => server?.stop();
  // Ctrl-C: what the run created is cleaned up before it exits (a second Ctrl-C leaves it)
  const interrupted = onInterrupt(io, o.keep ? undefined : () => runner.cleanUp(), async () => {
    await runner.close();
    await stopServer();
  });
  try {
    summaryResult = await runner.runMany(asked, plan);
  } finally {
    out.flush();
    progress?.stop();
    interrupted.off();
    try {
      if (!o.keep) cleanup = await runner.cleanUp();
    } finally {
      await runner.close();
      await stopServer();
    }
  }
  // each one's latest result: a prerequisite's names every operation that reused it
  const everyResult = [...ran].map((id) => runner.result(id)!);
  // The summary counts every operation that ran, prerequisites included: a failed
  // prerequisite is a failure even when only its dependents were asked for.
  const filesOnly = allToFiles(reporters);
  if (lines || filesOnly)
    io.stdout(
      formatSummary(
        { ...summaryResult, ...ends },
        fmt,
        everyResult.filter((r) => r.status === 'failed'),
      ),
    );
  if (cleanup) (lines ? io.stdout : io.stderr)(formatCleanup(cleanup, 'flow run'));
  if (unset.length) {
    const say = `${blocked.length} operation(s) asked for skipped: they need a <SET_VIA_--var> nobody gave\n${describeUnset(unset).replace(/^/gm, '  ')}\n`;
    (lines ? io.stdout : io.stderr)(say);
  }
  if (lines || filesOnly) io.stdout(brakeLine(brake));
  const environment = o.env ?? project.defaultEnvironment ?? project.environments.keys().next().value;
  // A shard reports its own operations; a prerequisite from another part is reported by the shard that owns it.
  const owned = shard ? new Set(asked) : undefined;
  const results = everyResult.filter((r) => !owned || owned.has(r.operation));
  const report = { project, graph, environment, asked, results, summary: { ...ends, ms: summaryResult.ms }, startedAt, cwd: io.cwd };
  const { problems: unwritten, written } = await writeReports(report, reporters, io);
  for (const problem of unwritten) io.stderr(`flow run: ${problem}\n`);
  if (filesOnly) io.stdout(reportPaths(written, io.cwd));
  if (o.record) {
    // A prerequisite that passed was confirmed by a real response too (docs/format.md#provenance-and-state-changes).
    const recorded = await reportingWriteErrors('run', io, () => recordVerified(project, everyResult));
    if (typeof recorded === 'number') return recorded;
    // On stderr when stdout holds a report instead of the lines.
    (lines ? io.stdout : io.stderr)(
      `recorded verified_against: live_capture on ${recorded.operations.length} operation(s) in ${recorded.files.length} file(s)\n`,
    );
  }
  return summaryResult.failed || summaryResult.skipped || unwritten.length ? EXIT.failed : EXIT.ok;
} satisfies Command);

/** The plan: every operation that would run, in order, with why it runs. */
/** @param order the schedule order of `asked` and their prerequisites */
function dryRun(project: Project, graph: ProjectGraph, asked: string[], order: string[]): string {
  const askedSet = new Set(asked);
  const lines = ['Plan (nothing is sent):'];
  const planned = new Set(order);
  order.forEach((id, i) => {
    const op = project.operations.get(id)!;
    let why = askedSet.has(id) ? 'asked for' : `prerequisite of ${dependentsIn(graph, id, planned).join(', ')}`;
    // force: true is not reused: it runs afresh before each operation that needs it
    if (op.force && !askedSet.has(id)) why += '; force: runs again before each of them';
    const actor = op.actor ? ` as ${op.actor}` : '';
    lines.push(`  ${String(i + 1).padStart(3)}. ${id.padEnd(28)} ${op.method.padEnd(6)} ${op.path}${actor}  (${why})`);
  });
  return `${lines.join('\n')}\n`;
}

/** The planned operations that need `id` directly. */
function dependentsIn(graph: ProjectGraph, id: string, planned: Set<string>): string[] {
  const i = graph.indexOf.get(id)!;
  return graph.neededBy[i].map((n) => graph.opIds[n]).filter((d) => planned.has(d));
}
