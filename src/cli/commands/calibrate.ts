// `flow calibrate [resource.operation...]`: run operations against the live API and propose
// the edits real answers prove; --apply writes them. Wiring and output only: the logic is in
// src/calibrate.
import path from 'node:path';
import { parseCommandArgs, usageError } from '../usage.js';
import { applyCalibration, calibrate, planCalibration, withTentativeValues, type CalibrateOptions } from '../../calibrate/index.js';
import { bodyFieldSchema, queryParameters, readDescription } from '../../openapi/index.js';
import { buildGraph } from '../../graph/index.js';
import type { Project } from '../../project/index.js';
import { descriptionFile } from '../../import/index.js';
import { FlowError } from '../../errors.js';
import { reportingWriteErrors, writeNamedFile } from '../write-failure.js';
import { formatCalibration, formatCalibrationPlan } from '../format/calibration.js';
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
import { type CleanupReport, describeUnset, type RunEvent, unsetVariables } from '../../runner/index.js';
import { formatCleanup, mergeCleanups } from '../format/cleanup.js';

const OPTIONS = {
  project: { type: 'string', short: 'p', default: '.', arg: '<dir>', help: 'project directory holding flow.yaml (default: .)' },
  env: { type: 'string', arg: '<name>', help: 'environment to use' },
  ...VAR_OPTION,
  ...RATE_OPTION,
  ...SELECT_OPTIONS,
  writes: {
    type: 'boolean',
    default: false,
    help: ['also run operations that write (POST, PUT, PATCH); by default only', "GET, HEAD and OPTIONS run (actors' logins always do)"],
  },
  destructive: { type: 'boolean', default: false, help: ['with --writes, also run DELETEs and bulk changes (a PUT or PATCH', 'with no {{…}} in its path)'] },
  'dry-run': { type: 'boolean', default: false, help: 'print what would be sent and what would not, and send nothing' },
  apply: {
    type: 'boolean',
    default: false,
    help: [
      'write the proposals into the files (comments and order kept) and set',
      '_provenance.verified_against: live_capture and',
      '_provenance.evidence.observed on the operations that passed',
    ],
  },
  report: { type: 'string', arg: '<file>', help: 'write the Calibration report there instead of stdout' },
  openapi: {
    type: 'string',
    arg: '<file>',
    help: [
      'the OpenAPI 3.0/3.1 (or Swagger 2.0) description: a body field a',
      "400/422 names gets its value from the field's schema there, and the",
      'query parameters it declares are tried after a 400/422',
    ],
  },
  ...CACHE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

const HELP = `Usage: flow calibrate [resource.operation...] [options]

Runs the operations (every one when none is named), each with its prerequisites, against
the live API, and for every expectation a real answer contradicts, proposes the smallest
edit that answer proves: the status returned (in the class expected only: a failure where
success is expected is diagnosed, never written in), the one place where an extracted field
is, an actor for an operation refused (401/403) without one, the other standard form of an
actor's Authorization header, a value for each body field a 400/422 names (never a body on
a GET, HEAD, DELETE or OPTIONS), a query parameter the description declares for a 400/422,
a JSON body for a 415 to a write sent without one, an id given by --var linked to the
create that returns it, a login from a 401's WWW-Authenticate.
The creates of the ids in an asked operation's path run too (the report names them). Each
edit is tried in memory on a fresh runner until the request is accepted. What no answer
proves stays an open question.

Options:
${optionHelp(OPTIONS)}
Exit codes: 0 every operation that ran passes (with the proposals), 1 an open question
remains or an operation still fails (or lint errors), 2 usage error.
`;

export default (async function calibrateCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs({ name: 'calibrate', help: HELP }, { args: argv, allowPositionals: true, options: OPTIONS }, io);
  if (typeof args === 'number') return args;
  const { values: o, positionals } = args;
  const usage = (message: string) => usageError(io, 'calibrate', message);
  if (o.destructive && !o.writes) return usage('--destructive needs --writes as well');
  if (o['dry-run'] && o.apply) return usage('--dry-run sends nothing, so there is nothing to --apply');
  const vars = parseVars(o.var);
  const brake = parseRate(o.rate);
  if (typeof brake === 'string') return usage(brake);
  if (typeof vars === 'string') return usage(vars);
  const opened = await openLiveProject('calibrate', o, positionals, io, cacheOptions(o, io.env, io.cwd));
  if (typeof opened === 'number') return opened;
  const { project, graph } = opened;
  const asked = selectOperations(positionals.length ? positionals : [...project.operations.keys()], o.only, o.exclude);
  if (!asked.length) return usage('no operation matches --only/--exclude: nothing was sent');
  // a switch (a write whose path names no instance) is sent only when named: positionally or by --only
  const named = [...(positionals.length ? positionals : []), ...(o.only.length ? asked : [])];
  // an operation a missing --var blocks is "Not run" (with the variable); the others run
  const flags = {
    writes: o.writes,
    destructive: o.destructive,
    unsetVariables: (p: Project, order: string[]) => unsetVariables(p, buildGraph(p), order, o.env, vars, io.env).map((v) => v.name),
  };
  const plan = planCalibration(project, graph, asked, { writes: o.writes, destructive: o.destructive });
  const unset = unsetVariables(project, graph, plan.order, o.env, vars, io.env);
  if (o['dry-run']) {
    io.stdout(formatCalibrationPlan(project, plan));
    if (unset.length) io.stdout(`\nBefore it can run:\n${describeUnset(unset).replace(/^/gm, '  ')}\n`);
    return EXIT.ok;
  }
  // the schema the description gives a body field: the value proposed for a field a 400/422 names
  // comes from it; and the query parameters it declares, tried after a 400/422
  // without --openapi, the description flow import kept in the project
  const found = descriptionFile(o.openapi, project.dir);
  const described = found && { ...found, file: path.resolve(io.cwd, found.file) };
  let fieldSchema: CalibrateOptions['fieldSchema'];
  let queryParams: CalibrateOptions['queryParams'];
  try {
    const desc = described === undefined ? undefined : await readDescription(described.file);
    if (desc) {
      fieldSchema = (op, field) => bodyFieldSchema(desc, op, field);
      queryParams = (op) => queryParameters(desc, op);
    }
  } catch (err) {
    return usage(`--openapi: ${err instanceof FlowError ? `${err.code}: ${err.message}` : String(err)}`);
  }
  if (unset.length) {
    // runnable once calibrate's tries for the variables that only stand for a body field are in
    const { model } = withTentativeValues(project, graph, flags.unsetVariables(project, [...project.operations.keys()]), fieldSchema);
    if (!planCalibration(model, buildGraph(model), asked, flags).run.length) return usage(`${describeUnset(unset)}\nnothing was sent`);
  }
  // each round and try cleans up what it created: what is left is said, with why
  const cleanups: CleanupReport[] = [];
  const onEvent = (e: RunEvent) => e.type === 'cleanup' && cleanups.push(e.report);
  const result = await calibrate(project, asked, { ...flags, graph, env: o.env, vars, processEnv: io.env, fieldSchema, queryParams, brake, named, onEvent });
  const cleanup = mergeCleanups(cleanups);
  // What was deleted is as it should be; what is left (a DELETE refused, or none addresses it) and
  // a switch not written back are said: nothing a calibration made stays on the server unsaid.
  if (cleanup.left.length || cleanup.restored.some((r) => !r.restored)) io.stderr(formatCleanup(cleanup, 'flow calibrate', false));
  const applied = o.apply
    ? await reportingWriteErrors('calibrate', io, () => applyCalibration(project, result.proposals, result.results, result.observed))
    : undefined;
  if (typeof applied === 'number') return applied;
  const report = formatCalibration(project, result, io.cwd, applied, described);
  if (o.report) {
    const failed = await writeNamedFile('calibrate', io, o.report, report);
    if (failed !== undefined) return failed;
    io.stdout(
      `flow calibrate: report written to ${o.report}: ${result.proposals.length} proposal(s), ${result.questions.length} open question(s)${applied ? `; ${applied.files.length} file(s) edited` : ''}\n`,
    );
  } else io.stdout(report);
  io.stdout(brakeLine(brake));
  const failing = result.results.some((r) => r.status !== 'passed');
  return result.questions.length || failing ? EXIT.failed : EXIT.ok;
} satisfies Command);
