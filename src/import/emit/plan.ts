// The plan in plain English: the five sections of docs/format.md#the-plan, in order, with their tables, and
// nothing else: each note ends the section it explains, so there is no sixth section.
import { coverageLine, coverageOf } from '../check/coverage.js';
import { evidenceText } from '../observed.js';
import { PLAN_HEADINGS, type Draft, type PlanSection } from '../infer/draft.js';
import { scalarText } from '../../project/index.js';

const cell = (v: unknown): string => {
  const s = v === undefined || v === '' ? '—' : String(v);
  return s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
};

function table(head: string[], rows: unknown[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

/** The notes of one section, as its last lines. */
function notesOf(draft: Draft, section: PlanSection): string[] {
  const notes = draft.notes.filter((n) => n.section === section);
  return notes.length ? ['Notes:', '', ...notes.map((n) => `- ${n.text}`), ''] : [];
}

export function renderPlan(draft: Draft): string {
  const ops = draft.resources.flatMap((r) => r.operations);
  const stated = draft.api.inputs.reduce((n, i) => n + i.operationCount, 0);
  const lines: string[] = [`# Import plan: ${draft.projectName}`, ''];
  lines.push(
    `Inputs: ${draft.api.inputs.map((i) => `\`${i.file}\` (${i.version}, ${i.operationCount} operations)`).join(', ') || 'none'}.`,
    `${ops.length} of ${stated} operations imported into ${draft.resources.length} resources, ${draft.actors.length} actors; ${draft.questions.length} open questions.`,
    `Coverage: ${coverageLine(coverageOf(draft.requests))}.`,
    '',
  );

  lines.push(`## ${PLAN_HEADINGS.actors}`, '');
  if (!draft.actors.length)
    lines.push(ops.length ? 'No actor: the imported operations are public (the input states no authentication for them).' : 'No actor.');
  for (const a of draft.actors) {
    lines.push(`- **${a.name}**: ${a.description}. Strategy \`${scalarText(a.auth.strategy)}\`. Login returns: ${a.loginReturns}.`);
    for (const e of a.evidence) lines.push(`  - evidence: ${evidenceText(e)}`);
  }
  lines.push('', ...notesOf(draft, 'actors'));

  lines.push(`## ${PLAN_HEADINGS.resources}`, '');
  lines.push(
    ...table(
      ['operation', 'method', 'path', 'actor', 'depends_on', 'expect_status', 'extracts'],
      ops.map((o) => [
        `${o.resource}.${o.name}`,
        o.method,
        `\`${o.path}\``,
        o.actor,
        o.dependsOn.join(', '),
        o.expectStatus.join(', '),
        Object.keys(o.extract).join(', '),
      ]),
    ),
    '',
  );
  if (draft.resources.length) lines.push(`Files: ${draft.resources.map((r) => `\`resources/${r.plural}.yaml\` (name: ${r.name})`).join(', ')}.`, '');
  const left = coverageOf(draft.requests).notEmitted;
  if (left.length) {
    lines.push('Requests not emitted:', '');
    for (const f of left)
      lines.push(
        `- \`${f.file}\` ${f.key}: ${f.fate === 'token_url' ? "written as an actor's token_url" : `${f.reason ?? 'no reason'}${f.question ? ` (open question ${f.question})` : ''}`}`,
      );
    lines.push('');
  }
  lines.push(...notesOf(draft, 'resources'));

  lines.push(`## ${PLAN_HEADINGS.variables}`, '');
  lines.push(
    ...table(
      ['variable', 'produced by', 'consumed by'],
      draft.flows.map((f) => [`\`${f.variable}\``, f.producedBy, f.consumedBy.join(', ')]),
    ),
    '',
  );
  lines.push(...notesOf(draft, 'variables'));

  lines.push(`## ${PLAN_HEADINGS.environment}`, '');
  const envRows: unknown[][] = [['`baseUrl`', 'plain', `${String(draft.baseUrl)}: ${draft.baseUrlNote}`]];
  for (const v of draft.variables) envRows.push([`\`${v.name}\``, 'plain', `${String(v.value)}: ${v.notes}`]);
  for (const s of draft.secrets) envRows.push([`\`${s.name}\``, 'secret', `referenced as \`{{secret.${s.name}}}\`; ${s.notes}`]);
  lines.push(...table(['variable', 'kind', 'notes'], envRows), '', ...notesOf(draft, 'environment'));

  lines.push(`## ${PLAN_HEADINGS.questions}`, '');
  if (!draft.questions.length) lines.push('None.');
  draft.questions.forEach((q, i) => {
    const blocks = q.blocks.length ? ` Blocks (skipped until answered): ${q.blocks.join(', ')}.` : '';
    const ev = q.evidence ? ` Evidence: ${evidenceText(q.evidence)}.` : '';
    lines.push(`${i + 1}. ${q.text}${blocks}${ev}`);
  });
  lines.push('', ...notesOf(draft, 'questions'));
  return lines.join('\n');
}
