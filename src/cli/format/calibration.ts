// The "Calibration" report (Markdown): each proposal with the request, the observed answer
// (the runner's redacted record, cut short) and the edit; then open questions, what was not
// run and why, and what passed. Nothing here reads a secret: the runner redacted it all.
import { displayLoc, displayPath, locate, type Loc, type Operation, type Project } from '../../project/index.js';
import type { Calibration, CalibrationPlan, Edit, Observed } from '../../calibrate/index.js';
import { NOT_SENT } from '../../runner/index.js';

const EXCERPT = 300;

/** `description`: the OpenAPI file read for schemas, and whether it is the one the project keeps (no --openapi given). */
export function formatCalibration(
  project: Project,
  c: Calibration,
  cwd: string,
  applied?: { files: string[] },
  description?: { file: string; kept: boolean },
): string {
  const out: string[] = ['# Calibration', ''];
  const count = (status: string) => c.results.filter((r) => r.status === status).length;
  // held back by ownership (docs/format.md#ownership): not sent, a person's call; the other skips wait on a prerequisite
  const held = c.results.filter((r) => r.status === 'skipped' && NOT_SENT.has(r.error?.code ?? ''));
  const waited = count('skipped') - held.length;
  const skipped = `${held.length ? `, ${held.length} held back (below)` : ''}${waited ? `, ${waited} skipped (a prerequisite failed)` : ''}`;
  out.push(
    `Project \`${project.name}\`: ${c.results.length - count('skipped')} operation(s) run (${c.rounds} round(s)), ${count('passed')} passed with the proposals below${skipped}; ${c.proposals.length} proposal(s), ${c.questions.length} open question(s), ${c.plan.notRun.length} not run.`,
    '',
  );
  if (description)
    out.push(
      `Description read: \`${displayPath(description.file, cwd)}\`${description.kept ? ', the one the project keeps (flow import kept it; `--openapi <file>` reads another)' : ' (--openapi)'}.`,
      '',
    );
  if (c.plan.added.length) out.push(`Producers added (not asked for; an asked operation's path holds an id they create): ${added(c.plan)}.`, '');
  out.push('## Proposals', '');
  if (!c.proposals.length) out.push('None: no answer contradicts an expectation.', '');
  c.proposals.forEach((p, i) => {
    out.push(`### ${i + 1}. ${p.operation}: ${title(p.edit)}`, '');
    out.push(...request(p.observed), `- Why: ${p.why}`, `- Edit (${where(project, p.edit, cwd)}): ${describe(p.edit)}`, '');
  });
  out.push(
    'A status is proposed only in the class expected (200, 201, 204 among themselves; a 4xx for a 4xx): a failure where success is expected is diagnosed (the login, the input, the id), never written in as the expectation.',
    '',
  );
  if (applied) out.push(`Applied: ${applied.files.length} file(s) edited (${applied.files.map((f) => displayPath(f, cwd)).join(', ') || 'none'}).`, '');
  out.push('## Open questions', '');
  if (!c.questions.length) out.push('None.', '');
  for (const q of c.questions) out.push(`- **${q.operation}**: ${q.question}`, ...(q.observed ? request(q.observed).map((l) => `  ${l}`) : []));
  if (c.questions.length) out.push('');
  if (held.length) {
    out.push(
      '## Held back',
      '',
      "Not sent: a write on what this run did not create, or a switch nobody named. Whether a test may send it is a person's call.",
      '',
    );
    for (const r of held) out.push(`- **${r.operation}** (${r.error!.code}): ${r.skippedBecause ?? r.error!.message}`);
    out.push('');
  }
  out.push('## Not run', '');
  out.push(...notRun(c.plan), '');
  out.push('## Passed', '');
  if (!c.observed.size) out.push('None.');
  for (const [id, seen] of c.observed) out.push(`- ${id}: \`${seen}\``);
  out.push('', '## Requests sent', '');
  if (!c.probes.length) out.push('None.');
  for (const p of c.probes) out.push(`- ${p.purpose}: \`${p.method} ${p.url}\` -> ${p.status ?? 'no answer'}`);
  return `${out.join('\n')}\n`;
}

/** --dry-run: what would be sent, in order, and what would not, with why. */
export function formatCalibrationPlan(project: Project, plan: CalibrationPlan): string {
  const lines = ['Calibration plan (nothing is sent):'];
  if (!plan.order.length) lines.push('  (no operation may run)');
  plan.order.forEach((id, i) => {
    const op = project.operations.get(id)!;
    lines.push(`  ${String(i + 1).padStart(3)}. ${id.padEnd(28)} ${op.method.padEnd(6)} ${op.path}${op.actor ? ` as ${op.actor}` : ''}`);
  });
  if (plan.added.length) lines.push('', `Producers added: ${added(plan)}`);
  lines.push('', 'Not run:', ...notRun(plan).map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

function added(plan: CalibrationPlan): string {
  return plan.added.map((a) => `${a.operation} (for ${a.for})`).join(', ');
}

function notRun(plan: CalibrationPlan): string[] {
  return plan.notRun.length ? plan.notRun.map((n) => `- ${n.operation}: ${n.why}`) : ['- none'];
}

function request(o: Observed): string[] {
  const body = (o.excerpt ?? '').replace(/\s+/g, ' ').trim();
  const cut = body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body;
  return [
    `- Request: \`${o.method} ${o.path}\`${o.url ? ` (sent to ${o.url})` : ''}`,
    `- Observed: ${o.status ?? 'no answer'}${cut ? `, body \`${cut.replace(/`/g, "'")}\`` : ''}`,
  ];
}

function title(e: Edit): string {
  switch (e.kind) {
    case 'extract':
      return `extract ${e.name}`;
    case 'header_form':
      return `actor ${e.actor}: header form`;
    case 'body_field':
      return `body ${e.field}`;
    case 'query_param':
      return `query ${e.name}`;
    case 'body':
      return 'body';
    case 'path_ref':
      return `path ${e.from}`;
    case 'depends_on':
      return `depends_on ${e.to}`;
    case 'force':
      return 'force';
    case 'login':
      return `login (new actor ${e.actor})`;
    default:
      return e.kind;
  }
}

function describe(e: Edit): string {
  switch (e.kind) {
    case 'expect_status':
      return `\`expect_status: ${e.from ? e.from.join(', ') : '(any 2xx)'}\` -> \`expect_status: ${e.to.join(', ')}\``;
    case 'extract':
      if (e.source) return `add \`extract: { ${e.name}: { path: ${JSON.stringify(e.to)}, source: ${e.source} } }\``;
      return e.from === undefined ? `add \`extract: { ${e.name}: ${e.to} }\`` : `\`${e.name}: ${e.from}\` -> \`${e.name}: ${e.to}\``;
    case 'body_field':
      return `add \`body.${e.field}: ${JSON.stringify(e.value)}\``;
    case 'query_param':
      return `add \`query_params.${e.name}: ${JSON.stringify(e.value)}\``;
    case 'body':
      return `add \`body: ${JSON.stringify(e.value)}\` (sent as JSON)`;
    case 'path_ref':
      return `\`${e.from}\` -> \`${e.to}\` in \`path\``;
    case 'depends_on':
      return `add \`${e.to}\` to \`depends_on\` (it runs first)`;
    case 'force':
      return 'add `force: true` (each operation that needs it runs it for itself)';
    case 'login':
      return [
        `new \`actors/${e.actor}.yaml\` (\`strategy: ${e.scheme}\`${e.scheme === 'basic' ? `, \`username: "{{env.${e.variable}}}"\` with \`${e.variable}: <SET_VIA_--var>\` in the environment, \`password: !secret ${e.secret}\`` : `, \`token: "{{secret.${e.secret}}}"\``})`,
        e.pattern ? `; \`${e.pattern}\` added to \`imports\` in flow.yaml` : '',
        '; not yet proven: give the variable and the secret, then calibrate again',
      ].join('');
    case 'actor':
      return `add \`actor: ${e.to}\``;
    case 'header_form':
      return `${e.place === 'inject' ? `\`inject.headers.${e.header}\`` : `\`auth.key\` (sent in ${e.header})`}: \`${e.from}\` -> \`${e.to}\``;
  }
}

function where(project: Project, e: Edit, cwd: string): string {
  if (e.kind === 'login') return displayPath(project.rootFile, cwd);
  const loc = e.kind === 'header_form' ? project.actors.get(e.actor)!.loc : editLoc(project, project.operations.get(e.operation)!, e.kind);
  return displayLoc(loc, cwd, false);
}

/** The line the edit changes: the `expect_status` key when the operation has one, else the operation. */
function editLoc(project: Project, op: Operation, kind: Edit['kind']): Loc {
  if (kind !== 'expect_status' || op.raw.expect_status === undefined) return op.loc;
  return locate(project, op.file, [...op.yamlPath, 'expect_status'], true);
}
