// The JSON report: one document a script can read. Its shape is versioned (`version`) and
// described by schemas/run-report.schema.json; a field is only ever added within a version.
import { displayPath, type Loc } from '../project/index.js';
import type { AssertRecord, ErrorRecord, OperationResult, RequestRecord, ResponseRecord } from '../runner/index.js';
import type { Finding, RunReport } from './types.js';

/** Bumped when a field changes meaning or goes away; new optional fields keep it. */
const RUN_REPORT_VERSION = 1;

export function jsonReport(report: RunReport): string {
  const { project, cwd } = report;
  const asked = new Set(report.asked);
  const doc = {
    format: 'reqflow-run',
    version: RUN_REPORT_VERSION,
    project: { name: project.name, root: displayPath(project.rootFile, cwd), environment: report.environment ?? null },
    startedAt: report.startedAt.toISOString(),
    ms: report.summary.ms,
    summary: { passed: report.summary.passed, failed: report.summary.failed, skipped: report.summary.skipped },
    asked: report.asked,
    operations: report.results.map((r) => operation(r, report, asked.has(r.operation))),
    // flow explore's report: each finding with its shrunk sequence
    ...(report.findings ? { findings: report.findings.map((f) => finding(f, cwd)) } : {}),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function operation(r: OperationResult, report: RunReport, asked: boolean) {
  const op = report.project.operations.get(r.operation);
  return {
    id: r.operation,
    resource: op?.resource ?? r.operation.split('.')[0],
    method: op?.method ?? null,
    path: op?.path ?? null,
    actor: op?.actor ?? null,
    ...place(r.loc, report.cwd),
    status: r.status,
    asked,
    prerequisiteOf: [...r.prerequisiteOf],
    ms: r.ms,
    ...(r.status === 'skipped' ? { skipReason: r.skippedBecause ?? null, blockedBy: r.blockedBy ?? null } : {}),
    ...(r.error ? { error: error(r.error, report.cwd) } : {}),
    asserts: r.asserts.map(assertion),
    extracted: { ...r.extracted },
    exchanges: r.exchanges.map((e) => ({ purpose: e.purpose, ...exchange(e) })),
    hookLogs: (r.hookLogs ?? []).map((l) => ({ hook: l.hook, lines: [...l.lines] })),
    warnings: (r.warnings ?? []).map((w) => ({ code: w.code, message: w.message })),
  };
}

function finding(f: Finding, cwd: string) {
  return {
    code: f.code,
    operation: f.operation,
    message: f.message,
    seed: f.seed,
    file: f.file ? displayPath(f.file, cwd) : null,
    steps: f.steps.map((s) => ({ operation: s.operation, role: s.role, ...(s.actor === undefined ? {} : { actor: s.actor }), ...exchange(s) })),
  };
}

/** Read field by field: records compute their redacted values on access. */
function exchange({ request, response }: { request?: RequestRecord; response?: ResponseRecord }) {
  return {
    request: request ? { method: request.method, url: request.url, headers: { ...request.headers }, body: request.body ?? null } : null,
    response: response ? { status: response.status, headers: { ...response.headers }, body: response.body, ms: response.ms } : null,
  };
}

function place(loc: Loc | undefined, cwd: string) {
  return loc ? { file: displayPath(loc.file, cwd), line: loc.line, col: loc.col } : {};
}

function error(e: ErrorRecord, cwd: string) {
  return { code: e.code, message: e.message, ...place(e.loc, cwd) };
}

function assertion(a: AssertRecord) {
  return {
    expr: a.expr,
    pass: a.pass,
    ...(a.expected !== undefined ? { expected: a.expected } : {}),
    ...(a.actual !== undefined ? { actual: a.actual } : {}),
    ...(a.reason ? { reason: a.reason } : {}),
  };
}
