// Each finding as a test: a resource file in the project format whose operations are the
// shrunk sequence, each step depending on the one before, the last (`check`) expecting what a
// correct server answers. `--out <dir>` gets a copy of the project's files (so that logins,
// parents and the environment are there) and one such file per finding under resources/;
// `flow run -p <dir> <name>.check` replays it: it fails while the bug is there and passes once
// it is fixed. A user can move the file into the project's resources/ as a regression test.
// Bodies are written as they were sent before rendering: generated values and the project's
// own `{{…}}` (a `!secret` stays a reference), never a rendered secret.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { isPlainObject, isSecretRef, readProjectFile, realProjectDir, writeProjectFile, type Operation, type Project } from '../project/index.js';
import { isHookFile } from '../runtime/index.js';
import { escapeTemplate, mapRefs, refersTo } from '../graph/index.js';
import { pointerSegments } from '../openapi/index.js';
import { GONE, type Problem } from './checks.js';
import type { RequestSchema } from './request-schema.js';
import type { StepRecord } from './session.js';
import type { Finding } from '../report/index.js';

export interface ExploreFinding extends Finding {
  problem: Problem;
  steps: StepRecord[];
}

/** Keys of an operation the replay writes itself, or leaves out (the happy path's expectations, loops). */
const REWRITTEN = new Set(['body', 'expect_status', 'assert', 'depends_on', 'extract', 'retry', 'for_each', 'poll_until', 'force', '_provenance']);

/** The resource name of a finding's replay: `finding_not_persisted_item_update`. */
function replayName(f: Finding): string {
  return `finding_${f.code.replace(/^E_/, '')}_${f.operation}`.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
}

/**
 * Writes the project's files and one replay per finding into `outDir` (each file atomically,
 * the project's one writer: E_WRITE_* when it cannot), and sets each finding's `file`. `described` gives the statuses an operation documents.
 */
export async function writeReplays(
  project: Project,
  findings: ExploreFinding[],
  outDir: string,
  described: (op: Operation) => RequestSchema | undefined,
): Promise<void> {
  await prepareReplays(project, outDir);
  for (const f of findings) writeReplay(project, f, outDir, described);
}

/** The project's files in `outDir`, for the replays written as findings are made. */
export async function prepareReplays(project: Project, outDir: string): Promise<void> {
  // the folder asked for is made; inside it, the project's writer makes the rest
  await mkdir(outDir, { recursive: true });
  for (const file of project.files) {
    if (file.kind === 'discarded') continue;
    const rel = path.relative(project.dir, file.path);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    writeProjectFile(outDir, path.join(outDir, rel), await readFile(file.path, 'utf8'));
  }
  await copyHookFiles(project, outDir);
}

/** One finding's replay, a file of its own that replays alone (`flow run -p <outDir> <name>.check`); sets the finding's `file`. */
export function writeReplay(project: Project, f: ExploreFinding, outDir: string, described: (op: Operation) => RequestSchema | undefined): void {
  const name = replayName(f);
  const file = path.join(outDir, 'resources', `${name}.yaml`);
  writeProjectFile(outDir, file, replayYaml(project, f, name, described));
  f.file = file;
  const root = project.files.find((r) => r.kind === 'root');
  if (root && !Array.isArray((root.value as Record<string, unknown> | undefined)?.imports)) {
    // an inline project imports nothing: the replays would not be read
    writeProjectFile(
      outDir,
      path.join(outDir, 'README.txt'),
      'The project is inline (no imports): add `imports: [resources/*.yaml]` to flow.yaml to run the replays.\n',
    );
  }
}

/**
 * The hook files the operations name (`pre_request: ./hooks/sign.js`): a replay runs its steps'
 * hooks. Read as the project's own files are (inside it, regular, capped); one that cannot be
 * read is left out, and the replay then fails with E_HOOK as the project's own run does.
 */
async function copyHookFiles(project: Project, outDir: string): Promise<void> {
  const hooks = new Set<string>();
  for (const op of project.operations.values()) {
    for (const hook of [op.preRequest, op.postResponse]) {
      if (hook === undefined || !isHookFile(hook)) continue;
      const rel = path.relative(project.dir, path.resolve(project.dir, hook.trim()));
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) hooks.add(rel);
    }
  }
  const realDir = hooks.size ? await realProjectDir(project.dir) : project.dir;
  for (const rel of hooks) {
    const read = readProjectFile(path.join(project.dir, rel), realDir);
    if (read.ok) writeProjectFile(outDir, path.join(outDir, rel), read.text);
  }
}

function replayYaml(project: Project, f: ExploreFinding, name: string, described: (op: Operation) => RequestSchema | undefined): string {
  const operations: Record<string, unknown> = {};
  let previous: string | undefined;
  // exactly what the sequence sent: a step that was not sent is not replayed either; for
  // --authz, the owner's step and the other actor's, which a correct server refuses (the owner's read after it is left out)
  const authz = f.code.startsWith('E_AUTHZ_');
  const sent = (authz ? f.steps.slice(0, 2) : f.steps).filter((s) => s.request);
  sent.forEach((step, i) => {
    const op = project.operations.get(step.operation)!;
    const last = i === sent.length - 1;
    const stepName = last ? 'check' : `step${i + 1}_${op.name}${step.invalid ? '_invalid' : ''}`.replace(/[^A-Za-z0-9_-]+/g, '_');
    const own = (v: unknown) => ownRefs(v, op.resource, name);
    const written: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(op.raw)) if (!REWRITTEN.has(k)) written[k] = own(v);
    if (step.actor === null) delete written.actor;
    else if (step.actor !== undefined) written.actor = step.actor;
    if (previous) written.depends_on = [`${name}.${previous}`];
    if (step.body !== undefined) written.body = own(asWritten(step.body, op.body));
    if (step.query) written.query_params = { ...(own(op.raw.query_params) as Record<string, unknown> | undefined), ...(escaped(step.query) as object) };
    const expected = last ? expectation(f, step, op, described(op)) : { status: step.status === undefined ? undefined : [step.status] };
    if (expected.status?.length) written.expect_status = expected.status.length === 1 ? expected.status[0] : expected.status;
    if (expected.asserts?.length) written.assert = expected.asserts;
    if (step.role === 'create' && !step.invalid && Array.isArray(op.extract) && op.raw.extract) written.extract = own(op.raw.extract);
    operations[stepName] = written;
    previous = stepName;
  });
  const head = [
    `# flow explore found ${f.code} at ${f.operation} (seed ${f.seed}): ${f.message.split('\n')[0]}`,
    `# Replay: flow run -p <this project> ${name}.check (fails while the bug is there, passes once it is fixed).`,
    `# Move this file into the project's resources/ to keep it as a regression test.`,
  ];
  if (f.code === 'E_CONTRACT') head.push('# The whole contract is checked with --openapi <description>.');
  const tried = f.code === 'E_AUTHZ_OTHER_READ' ? project.operations.get(f.steps[1]?.operation ?? '') : undefined;
  if (tried?.method === 'GET' && !refersTo(tried.path, tried.resource))
    head.push("# A correct API may also answer the list with a 2xx that leaves the owner's instance out: then check the body.");
  return `${head.join('\n')}\n${stringify({ name, operations }, { lineWidth: 0 })}`;
}

const AUTH_FAILURES = new Set([401, 403, 407]);

interface Expectation {
  status?: number[];
  asserts?: string[];
}

/** What a correct server answers the last step, by the finding's code. */
function expectation(f: ExploreFinding, step: StepRecord, op: Operation, described: RequestSchema | undefined): Expectation {
  // an authentication failure would prove nothing about the bug: never an expected answer
  const documented = (described?.statuses ?? []).map(Number).filter((n) => Number.isInteger(n) && n >= 100 && n < 600 && !AUTH_FAILURES.has(n));
  const below = (n: number) => documented.filter((s) => s < n);
  if (f.code.startsWith('E_AUTHZ_')) {
    const denials = (described?.statuses ?? []).map(Number).filter((n) => n === 401 || n === 403 || n === 404);
    return { status: denials.length ? denials : [401, 403, 404] };
  }
  switch (f.code) {
    case 'E_SERVER_ERROR':
      return { status: below(500).length ? below(500) : step.invalid ? [400, 422] : (op.expectStatus ?? [200, 201, 202, 204]) };
    case 'E_ACCEPTS_INVALID': {
      const refusals = documented.filter((s) => s >= 400 && s < 500);
      return { status: refusals.length ? refusals : [400, 422] };
    }
    case 'E_USE_AFTER_DELETE':
      return { status: GONE };
    case 'E_NOT_PERSISTED':
      return {
        status: step.status === undefined ? undefined : [step.status],
        asserts: (f.problem.differences ?? []).flatMap((d) => (d.redacted ? [] : literal(d.expected).map((lit) => `${d.path} == ${lit}`))),
      };
    default: {
      // E_CONTRACT: a status the description does not have, or required fields the answer lacks
      const status = f.problem.undocumentedStatus && documented.length ? documented : step.status === undefined ? undefined : [step.status];
      return { status, asserts: (f.problem.missing ?? []).map((pointer) => `${pathOf(pointer)} exists`) };
    }
  }
}

/** An assert literal for `v`; none when the assert syntax cannot say it (a control character, an object). */
function literal(v: unknown): string[] {
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return [JSON.stringify(v)];
  if (typeof v !== 'string' || /[\u0000-\u0008\u000b-\u001f\u007f]/.test(v) || v.includes('{{')) return [];
  return [`"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`];
}

/** `/items/0/title` -> `$.data.items[0].title` */
function pathOf(pointer: string): string {
  let out = '$.data';
  for (const part of pointerSegments(pointer)) {
    out += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `['${part.replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** A step's body as YAML writes it: what was drawn is data (its `{{` escaped, as explore sent it unrendered: asSent); the project's own fields as written. */
function asWritten(body: unknown, written: unknown): unknown {
  if (body === written) return body;
  if (!isPlainObject(body) || !isPlainObject(written)) return escaped(body);
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === written[k] ? v : escaped(v)]));
}

function escaped(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return escapeTemplate(v);
  if (!v || typeof v !== 'object' || depth > 32) return v;
  if (Array.isArray(v)) return v.map((x) => escaped(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, escaped(x, depth + 1)]));
}

/** `{{item.id}}` -> `{{finding_….id}}`: the steps act on what the replay itself creates; `!secret X` -> `{{secret.X}}`. */
function ownRefs(v: unknown, resource: string, name: string, depth = 0): unknown {
  if (typeof v === 'string')
    return mapRefs(v, (ref) => (ref.expr.kind === 'scoped' && ref.expr.scope === resource ? ref.raw.replace(resource, name) : undefined));
  if (isSecretRef(v)) return `{{secret.${v.name}}}`;
  if (!v || typeof v !== 'object' || depth > 32) return v;
  if (Array.isArray(v)) return v.map((x) => ownRefs(x, resource, name, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ownRefs(x, resource, name, depth + 1)]));
}
