// E_ASSERT_SYNTAX and E_EXTRACT_FAILED: an `assert` (or `poll_until` condition) that does not
// parse, and an extraction whose path, regex or XPath can never work. A run fails on them with
// the same code and message; lint says so before any request is sent. The checks are the
// runtime's own (src/graph/assert-syntax.ts, extract-syntax.ts), so the two cannot disagree.
import { checkAssert, checkExtract } from '../../graph/index.js';
import { isRawMap, sourceOf, type ExtractSpec, type Operation, type Project, type RequestSpec, type SourceFile, type YamlPath } from '../../project/index.js';
import type { Finding, Rule } from '../rule.js';

const expressionsRule: Rule = {
  id: 'expressions',
  codes: ['E_ASSERT_SYNTAX', 'E_EXTRACT_FAILED'],
  *check({ project }): Generator<Finding> {
    const findings: Finding[] = [];
    for (const op of project.operations.values()) {
      forEachAssertion(op, (text, yamlPath) => {
        const err = checkAssert(text);
        if (err) findings.push({ code: 'E_ASSERT_SYNTAX', message: err.message, file: op.file, yamlPath: yamlPath() });
      });
    }
    for (const spec of extractions(project)) {
      const why = checkExtract(spec);
      if (!why) continue;
      // the message of the run's extractFailed (src/runtime/extract/fail.ts)
      const message = `cannot extract "${spec.name}" with ${spec.path}: ${why}`;
      findings.push({ code: 'E_EXTRACT_FAILED', message, file: spec.file, yamlPath: pathOfExtraction(sourceOf(project, spec.file), spec.yamlPath) });
    }
    yield* findings;
  },
};

type Visit = (text: string, yamlPath: () => YamlPath) => void;

/**
 * Every expression the runner parses with parseAssert: `assert` items and `poll_until`
 * conditions, with the YAML path of each string (from the raw map: the model drops non-strings,
 * which would shift the indexes), built only when asked for (a finding).
 */
function forEachAssertion(op: Operation, visit: Visit): void {
  strings(op.raw.assert, () => [...op.yamlPath, 'assert'], false, visit);
  const poll = op.raw.poll_until;
  if (typeof poll === 'string' || Array.isArray(poll)) strings(poll, () => [...op.yamlPath, 'poll_until'], true, visit);
  else if (poll && typeof poll === 'object')
    strings((poll as Record<string, unknown>).condition, () => [...op.yamlPath, 'poll_until', 'condition'], true, visit);
}

/** A sequence's string items; a lone string too where the loader reads one (poll_until). */
function strings(value: unknown, yamlPath: () => YamlPath, single: boolean, visit: Visit): void {
  if (single && typeof value === 'string') visit(value, yamlPath);
  if (!Array.isArray(value)) return;
  value.forEach((item, i) => {
    if (typeof item === 'string') visit(item, () => [...yamlPath(), i]);
  });
}

/** Every extraction a run performs: operations, inline and actor logins, chain steps, refreshes. */
function extractions(project: Project): ExtractSpec[] {
  const out: ExtractSpec[] = [];
  const fromRequests = (requests: Array<RequestSpec | undefined>) => {
    for (const r of requests) if (r) out.push(...r.extract);
  };
  for (const op of project.operations.values()) {
    out.push(...op.extract);
    if (op.auth) fromRequests([op.auth.login, ...(op.auth.steps ?? [])]);
  }
  for (const actor of project.actors.values()) {
    fromRequests([actor.auth?.login, ...(actor.auth?.steps ?? []), actor.session?.refresh]);
  }
  return out;
}

/** Point at the path string itself: the value, or `path` of an explicit `{path, source}` map. */
function pathOfExtraction(file: SourceFile | undefined, yamlPath: YamlPath): YamlPath {
  let node: unknown = file?.value;
  for (const key of yamlPath)
    node = typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined;
  return isRawMap(node) ? [...yamlPath, 'path'] : yamlPath;
}

export default expressionsRule;
