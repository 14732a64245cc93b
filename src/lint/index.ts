// The lint stage: loader diagnostics + every rule's findings, positioned, with severities,
// de-duplicated and sorted. Pure: formatting and exit codes are the CLI's job.
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import { diag, type Diagnostic, locate, type Project, severityOf } from '../project/index.js';
import type { FixResult } from './fix/index.js';
import { separateFollowOns, type FollowOn } from './follow-ons.js';
import type { Finding, LintContext, MissingName, Rule } from './rule.js';
import { RULES } from './rules/index.js';

export interface LintOptions {
  /** warnings fail too (`flow lint --strict`) */
  strict?: boolean;
  /** the rules to run; all of them by default (tests run one) */
  rules?: readonly Rule[];
  /** a graph already built for this project (flow run shares it with the runner) */
  graph?: ProjectGraph;
}

export interface LintResult {
  /** parse errors first, then sorted by file, line, col; for one position, loader first, then in rule order */
  diagnostics: Diagnostic[];
  /** findings not in `diagnostics` because they only follow from a file that did not parse, counted per file */
  followOns: FollowOn[];
  errors: number;
  warnings: number;
  /** no errors (and, with `strict`, no warnings) */
  ok: boolean;
}

export function lint(project: Project, options: LintOptions = {}): LintResult {
  const ctx = context(project, options.graph);
  const found: Array<{ diagnostic: Diagnostic; missing?: MissingName }> = project.diagnostics.map((diagnostic) => ({ diagnostic }));
  for (const rule of options.rules ?? RULES) found.push(...runRule(rule, ctx));
  const { shown, followOns } = separateFollowOns(project, found);
  const diagnostics = sortDiagnostics(dedupe(shown));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return { diagnostics, followOns, errors, warnings, ok: errors === 0 && !(options.strict && warnings > 0) };
}

/** The graph is built on first use, once: the structural rules never pay for it. */
function context(project: Project, built?: ProjectGraph): LintContext {
  let graph: ProjectGraph | undefined = built;
  return {
    project,
    get graph() {
      return (graph ??= buildGraph(project));
    },
  };
}

/** A rule that throws costs its own findings, never the run: it becomes E_INTERNAL. */
function runRule(rule: Rule, ctx: LintContext): Array<{ diagnostic: Diagnostic; missing?: MissingName }> {
  const out: Array<{ diagnostic: Diagnostic; missing?: MissingName }> = [];
  try {
    for (const finding of rule.check(ctx)) out.push({ diagnostic: toDiagnostic(ctx.project, finding), missing: finding.missing });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    out.push({ diagnostic: diag('E_INTERNAL', `lint rule "${rule.id}" failed: ${why.split('\n')[0]}`, ctx.project.rootFile) });
  }
  return out;
}

function toDiagnostic(project: Project, f: Finding): Diagnostic {
  const loc = locate(project, f.file, f.yamlPath, f.atKey ?? false);
  return { code: f.code, severity: f.severity ?? severityOf(f.code), message: f.message, file: loc.file, line: loc.line, col: loc.col };
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.col}\0${d.code}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A file that does not parse is the first thing to fix: what else is wrong may follow from it. */
const parseFirst = (d: Diagnostic) => (d.code === 'E_YAML_PARSE' ? 0 : 1);

/** Stable: equal positions keep their order (loader, then rule order). */
function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => parseFirst(a) - parseFirst(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}

export type { Rule } from './rule.js';
export { RULES } from './rules/index.js';
export { CODES } from './codes.js';
export type { FollowOn } from './follow-ons.js';
export { followOnLine, format, FORMATS, type FormatName } from './format/index.js';
export { isFormatName } from './format/index.js';
export { escapeData, escapeProperty } from './format/github.js';
export { stylishLine } from './format/stylish.js';
export { readSchema, SCHEMA_FILES } from './schema/sources.js';
export { strategyKeys } from './schema/auth-keys.js';

/** The --fix edits (docs/lint.md), loaded on first use: they need `yaml`, which a lint served from the parse cache never loads. */
export async function fixProject(project: Project): Promise<FixResult> {
  const fix = await import('./fix/index.js');
  return fix.fixProject(project);
}
export type { FixResult } from './fix/index.js';
