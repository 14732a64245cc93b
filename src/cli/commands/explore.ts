// `flow explore -p <project> --openapi <spec>`: stateful property-based testing from the graph
// (src/explore). Wiring and output only: each finding as `FINDING <CODE> <operation>` with the
// shrunk sequence (redacted by the runner) as it is made, its replay written with --out first;
// the flaky problems, the summary with the answers by class, the reports.
import { formatCleanup } from '../format/cleanup.js';
import path from 'node:path';
import { parseCommandArgs, usageError } from '../usage.js';
import { loadContract } from '../../contract/index.js';
import { descriptionFile } from '../../import/index.js';
import { displayPath } from '../../project/index.js';
import { ANSWER_CLASSES, explore, prepareReplays, requestSchema, writeReplay, type ExploreProgress, type ExploreResult } from '../../explore/index.js';
import { createRedactor } from '../../redact/index.js';
import { findingText, wantsProgress } from '../../report/index.js';
import { envSecretValues } from '../../runtime/index.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { openLiveProject, parseVars } from '../open-live-project.js';
import {
  brakeLine,
  CACHE_OPTIONS,
  cacheOptions,
  optionHelp,
  parseRate,
  RATE_OPTION,
  SELECT_OPTIONS,
  selectOperations,
  VAR_OPTION,
  type OptionTable,
} from '../options.js';
import { chooseReporters, writeReports } from '../reporters.js';
import { describeUnset, unsetVariables } from '../../runner/index.js';
import { armWatchdog } from '../watchdog.js';

/** How long past its budget explore may run (the clean-up, a step under way) before the command stops it. */
const WALL_MS = 10_000;

/** `work`'s value, or undefined when `ms` passed first: the budget is a wall for the whole command. */
async function withinWall<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wall = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, wall]);
  } finally {
    clearTimeout(timer);
  }
}

const OPTIONS = {
  project: { type: 'string', short: 'p', default: '.', arg: '<dir>', help: 'project directory holding flow.yaml (default: .)' },
  openapi: {
    type: 'string',
    arg: '<file>',
    help: 'the OpenAPI 3.0/3.1 description: request schemas to draw from, responses to check (default: the openapi.json or openapi.yaml flow import kept in the project)',
  },
  budget: { type: 'string', default: '60', arg: '<seconds>', help: 'wall time to explore for (default 60); the command ends within it + 10 s' },
  ...SELECT_OPTIONS,
  rounds: {
    type: 'string',
    arg: '<n>',
    help: 'stop after n rounds, each giving every resource 40 sequences, or at the budget, whichever comes first: with --seed, the same draws on a slow machine as on a fast one',
  },
  seed: { type: 'string', arg: '<n>', help: 'seed of the draws: the same seed sends the same requests (default: random, printed)' },
  out: { type: 'string', arg: '<dir>', help: ["write a replayable project there: the project's files and one", 'resources/finding_*.yaml per finding'] },
  destructive: { type: 'boolean', default: false, help: 'also send bulk operations (DELETE, PUT, PATCH on a path with no {{…}})' },
  authz: {
    type: 'boolean',
    default: false,
    help: ['also try what each actor creates as every other actor and with no', "credentials, and a role's operations as the other actors"],
  },
  env: { type: 'string', arg: '<name>', help: 'environment to use' },
  ...VAR_OPTION,
  ...RATE_OPTION,
  reporter: { type: 'string', multiple: true, default: [] as string[], arg: '<name>', help: 'default, json, junit, markdown (repeatable), as for flow run' },
  'output-file': { type: 'string', multiple: true, default: [] as string[], arg: '<name=path>', help: "write that reporter's report to a file (repeatable)" },
  ...CACHE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

const HELP = `Usage: flow explore -p <project> --openapi <file> [options]

Draws sequences of each resource's operations (create, read, update, delete,
read-after-delete, bodies that break the request schema) with bodies drawn from the
description's request schemas (valid, boundary and invalid values); ids come from real
creates run through the graph. Every answer is checked; a problem is shrunk to the shortest
sequence and the smallest bodies that still show it, then its steps are sent 5 more times:
one every replay shows again is printed at once as FINDING <CODE> <operation> with the
requests and the answers (secrets as ***); one a replay does not is listed at the end as FLAKY.
The summary counts the answers by class (2xx, 401/403, 404, 429, other 4xx, 5xx).

Codes: E_SERVER_ERROR (a 5xx), E_CONTRACT (an undocumented status, or a body that breaks
its schema), E_ACCEPTS_INVALID (a body that breaks the request schema got a 2xx),
E_USE_AFTER_DELETE (a read after a delete did not answer 404, 410, 401 or 403), E_NOT_PERSISTED
(a read right after a create or update does not show what was written).

Each schema's edges come first (each bound and one past it, each length limit and one past
it, each enum value and one outside, each required property left out, the wrong type), then
random values. An operation that needs a <SET_VIA_--var> nobody gave, or whose request schema
cannot be drawn from (W_EXPLORE_SCHEMA, with its pointer), is listed as "not explored" and
the rest runs. The same --seed sends the same requests, {{$.faker.*}} and {{$.uuid}} included.

With --authz (two or more actors): E_AUTHZ_OTHER_READ (another actor read or listed an
instance it did not create), E_AUTHZ_OTHER_WRITE (another actor changed or deleted it, as
the owner's next read shows), E_AUTHZ_ANONYMOUS (an operation the description secures
answered 2xx with no credentials), E_AUTHZ_ROLE (an operation the description scopes to a
role answered another actor). What the description makes public (security: []) and what a
resource is shared with (shared: in its file) is not tried.

Writes are sent (this command exists to write); bulk operations only with --destructive.
Only what the run created is deleted.

Options:
${optionHelp(OPTIONS)}
Exit codes: 0 no finding, 1 a finding (or lint errors, or no step got an answer, or the
command reached its wall, budget + 10 s), 2 usage error (or no operation can be explored).
`;

export default (async function exploreCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs({ name: 'explore', help: HELP }, { args: argv, allowPositionals: false, options: OPTIONS }, io);
  if (typeof args === 'number') return args;
  const { values: o } = args;
  const usage = (message: string) => usageError(io, 'explore', message);
  const budget = Number(o.budget);
  if (!(budget > 0) || budget > 86_400) return usage(`--budget is a number of seconds from 0 to 86400; got "${o.budget}"`);
  const rounds = o.rounds === undefined ? undefined : Number(o.rounds);
  if (rounds !== undefined && !(Number.isSafeInteger(rounds) && rounds > 0)) return usage(`--rounds is a whole number above 0; got "${o.rounds}"`);
  const seed = o.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(o.seed);
  if (!Number.isSafeInteger(seed)) return usage(`--seed is a whole number; got "${o.seed}"`);
  const reporters = chooseReporters(o.reporter, o['output-file'], io.cwd);
  if (typeof reporters === 'string') return usage(reporters);
  const vars = parseVars(o.var);
  const brake = parseRate(o.rate);
  if (typeof brake === 'string') return usage(brake);
  if (typeof vars === 'string') return usage(vars);
  const opened = await openLiveProject('explore', o, [], io, cacheOptions(o, io.env, io.cwd));
  if (typeof opened === 'number') return opened;
  const { project, graph } = opened;
  // without --openapi: the description flow import kept in the project
  const source = descriptionFile(o.openapi, project.dir);
  if (source === undefined)
    return usage('--openapi <file> is required (the project keeps no openapi.json from flow import): its request schemas are what is drawn from');
  let contract;
  try {
    contract = await loadContract(source.file, 'fail', io.cwd);
  } catch (err) {
    return usage(`--openapi: ${(err as { code?: string }).code ?? 'E_CONTRACT_LOAD'}: ${(err as Error).message}`);
  }

  const lines = reporters.some((r) => r.name === 'default');
  const say = lines ? io.stdout : io.stderr;
  say(`flow explore: budget ${budget} s, seed ${seed}\n`);
  if (source.kept)
    say(`flow explore: reading ${displayPath(source.file, io.cwd)}, the description the project keeps (flow import kept it; --openapi <file> reads another)\n`);
  const redactor = createRedactor(envSecretValues(io.env));
  const progress = wantsProgress(io.isTTY, io.env) ? progressWriter(io.stderr) : undefined;
  const startedAt = new Date();
  const described = (op: Parameters<typeof requestSchema>[2]) => requestSchema(contract.description, contract.schemas, op);
  const outDir = o.out === undefined ? undefined : path.resolve(io.cwd, o.out);
  let unwrittenReplays = false;
  const cannotWrite = (err: unknown) => {
    unwrittenReplays = true;
    io.stderr(`flow explore: ${(err as { code?: string }).code ?? 'E_WRITE_FAILED'}: ${(err as Error).message}\n`);
  };
  try {
    if (outDir !== undefined) await prepareReplays(project, outDir);
  } catch (err) {
    cannotWrite(err);
  }
  // past the wall's timer, for work that keeps the main thread from running it
  const selected = new Set(selectOperations([...project.operations.keys()], o.only, o.exclude));
  const disarm = armWatchdog(budget * 1000 + WALL_MS + 4000, `flow explore: W_EXPLORE_WALL: stuck past its budget + ${WALL_MS / 1000 + 4} s: killed\n`);
  let result;
  try {
    result = await withinWall(
      explore(project, {
        contract,
        graph,
        budgetMs: budget * 1000,
        rounds,
        seed,
        destructive: o.destructive,
        authz: o.authz,
        env: o.env,
        vars,
        processEnv: io.env,
        // an operation a missing --var blocks is "not explored" (with the variable), as in calibrate; the others run
        unsetVariables: (p, order) => unsetVariables(p, graph, order, o.env, vars, io.env).map((v) => v.name),
        selected: (id) => selected.has(id),
        named: o.only.length ? [...selected] : [],
        brake,
        redactor,
        onProgress: progress?.update,
        // each finding as soon as its replay showed it again, its replay file written first
        onFinding: (f) => {
          try {
            if (outDir !== undefined && !unwrittenReplays) writeReplay(project, f, outDir, described);
          } catch (err) {
            cannotWrite(err);
          }
          progress?.clear();
          say(findingText(f, io.cwd));
        },
      }),
      budget * 1000 + WALL_MS,
    );
  } catch (err) {
    // a host that is not declared for writes: nothing was written there; the message says how to declare it
    if ((err as { code?: string }).code !== 'E_HOST_NOT_WRITABLE') throw err;
    progress?.stop();
    return usage(`E_HOST_NOT_WRITABLE: ${(err as Error).message}`);
  } finally {
    disarm();
  }
  progress?.stop();
  if (result === undefined) {
    io.stderr(`flow explore: W_EXPLORE_WALL: explore did not end within its budget + ${WALL_MS / 1000} s and was stopped; nothing more is reported\n`);
    return EXIT.failed;
  }
  for (const s of result.skipped) if (s.code) io.stderr(`flow explore: ${s.code}: ${s.operation} is not explored: #${s.pointer}: ${s.why}\n`);
  const unset = result.skipped.filter((s) => s.unset?.length);
  // nothing at all could run: what would make it run is a usage question
  if (!result.resources.length && (unset.length || result.skipped.some((s) => s.code))) {
    for (const s of result.skipped) say(`  not explored: ${s.operation}: ${s.why}\n`);
    const names = [...new Set(unset.flatMap((s) => s.unset!))].map((name) => ({ name }));
    return usage(`${names.length ? `${describeUnset(names)}\n` : ''}no operation can be explored: nothing was sent`);
  }
  for (const f of result.flaky) {
    const replays = f.replayed ? `by ${f.replayed} replay(s) of the first, then not by the next` : 'not by the replay of the first';
    say(`FLAKY ${f.code} ${f.operation}: shown by ${f.shown} sequence(s), ${replays}: not a finding\n  ${f.message.split('\n')[0]}\n`);
  }
  for (const s of result.skipped) say(`  not explored: ${s.operation}: ${s.why}\n`);
  for (const line of summaryLines(result)) say(line);
  say(brakeLine(brake));
  const report = {
    project,
    graph,
    environment: o.env ?? project.defaultEnvironment ?? project.environments.keys().next().value,
    asked: [],
    results: [],
    summary: { passed: 0, failed: result.findings.length, skipped: 0, ms: result.ms },
    startedAt,
    cwd: io.cwd,
    findings: result.findings,
  };
  const { problems: unwritten } = await writeReports(report, reporters, io);
  for (const problem of unwritten) io.stderr(`flow explore: ${problem}\n`);
  // what each sequence's clean-up could not remove is said, with why (a DELETE the server answered 2xx and ignored)
  const { deleted, left } = result.cleanup;
  if (left.length) io.stderr(formatCleanup({ restored: [], deleted: [], left, exchanges: [] }, 'flow explore', false, deleted));
  // nothing explored is not a pass: a login or a prerequisite failed, or nothing may be sent
  const nothing = result.answered === 0;
  if (nothing)
    io.stderr(
      `flow explore: no step got an answer${result.resources.length ? ' (a login or a prerequisite failed?): `flow run --all` shows why' : ': no resource has a create, a collection read or (with --destructive) a bulk operation'}\n`,
    );
  return result.findings.length || unwritten.length || unwrittenReplays || nothing ? EXIT.failed : EXIT.ok;
} satisfies Command);

/** The summary: findings, what was sent, the answers by class, and what kept the run from exploring. */
function summaryLines(result: ExploreResult): string[] {
  const seconds = result.ms / 1000;
  const lines = [
    `explore: ${result.findings.length} finding(s)${result.flaky.length ? `, ${result.flaky.length} flaky` : ''} in ${result.resources.length} resource(s) (${result.resources.join(', ') || 'none'}); ` +
      `${result.sequences} sequences, ${result.operations} operations, ${result.requests} requests in ${seconds.toFixed(1)} s ` +
      `(${Math.round(result.requests / Math.max(seconds, 0.001))} requests/s)\n`,
  ];
  const total = ANSWER_CLASSES.reduce((n, c) => n + result.answers[c], 0);
  const counts = ANSWER_CLASSES.filter((c) => c !== 'other' || result.answers.other).map((c) => `${c} ${result.answers[c]}`);
  lines.push(`  answers: ${total} (${counts.join(', ')})\n`);
  if (result.sequences && result.pastLogin * 2 < result.sequences)
    lines.push(
      `  most sequences never got past their login: ${result.sequences - result.pastLogin} of ${result.sequences} had no answer but 401/403 (or none): check the actors' credentials\n`,
    );
  if (result.attempts) lines.push(`${attemptsLine(result.attempts)}\n`);
  if (total && result.answers['429'] * 2 > total)
    lines.push(`  most answers were 429 (too many requests): ${result.answers['429']} of ${total}; the server limits the rate, so little was explored\n`);
  return lines;
}

/**
 * `authz: 40 cross-actor attempt(s) (alice -> bob 14, alice -> no credentials 12, …)`, then how
 * many of each pair's the API refused: `  refused: alice -> bob 12 of 14, …`.
 */
function attemptsLine(attempts: Record<string, { sent: number; refused: number }>): string {
  const pairs = Object.entries(attempts);
  if (!pairs.length) return 'authz: no cross-actor attempt (it needs two actors, and an instance one of them creates)';
  const total = pairs.reduce((n, [, k]) => n + k.sent, 0);
  const refused = pairs.map(([pair, k]) => `${pair} ${k.refused} of ${k.sent}`).join(', ');
  return `authz: ${total} cross-actor attempt(s) (${pairs.map(([pair, k]) => `${pair} ${k.sent}`).join(', ')})\n  refused (a non-2xx, or a 2xx with none of the owner's data): ${refused}`;
}

/** The live line on a terminal: operations, requests, findings, time; redrawn at most 10 times a second. */
function progressWriter(write: (text: string) => void) {
  let last = 0;
  return {
    /** off the line, for a finding printed meanwhile (redrawn at the next update) */
    clear: () => {
      last = 0;
      write('\r\u001b[K');
    },
    update: (p: ExploreProgress) => {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      write(`\r\u001b[Kexplore  ${p.operations} operations  ${p.requests} requests  ${p.findings} finding(s)  ${(p.ms / 1000).toFixed(1)} s`);
    },
    stop: () => write('\r\u001b[K'),
  };
}
