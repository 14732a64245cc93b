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
    for (const op of project.operations.values()) {
      for (const { text, yamlPath } of assertions(op)) {
        const err = checkAssert(text);
        if (err) yield { code: 'E_ASSERT_SYNTAX', message: err.message, file: op.file, yamlPath };
      }
    }
    for (const spec of extractions(project)) {
      const why = checkExtract(spec);
      if (!why) continue;
      // the message of the run's extractFailed (src/runtime/extract/fail.ts)
      const message = `cannot extract "${spec.name}" with ${spec.path}: ${why}`;
      yield { code: 'E_EXTRACT_FAILED', message, file: spec.file, yamlPath: pathOfExtraction(sourceOf(project, spec.file), spec.yamlPath) };
    }
  },
};

/**
 * Every expression the runner parses with parseAssert: `assert` items and `poll_until`
 * conditions, with the YAML path of each string (from the raw map: the model drops non-strings,
 * which would shift the indexes).
 */
function* assertions(op: Operation): Generator<{ text: string; yamlPath: YamlPath }> {
  const base = op.yamlPath;
  yield* strings(op.raw.assert, [...base, 'assert'], false);
  const poll = op.raw.poll_until;
  if (typeof poll === 'string' || Array.isArray(poll)) yield* strings(poll, [...base, 'poll_until'], true);
  else if (poll && typeof poll === 'object') yield* strings((poll as Record<string, unknown>).condition, [...base, 'poll_until', 'condition'], true);
}

/** A sequence's string items; a lone string too where the loader reads one (poll_until). */
function* strings(value: unknown, yamlPath: YamlPath, single: boolean): Generator<{ text: string; yamlPath: YamlPath }> {
  if (single && typeof value === 'string') yield { text: value, yamlPath };
  if (!Array.isArray(value)) return;
  for (const [i, item] of value.entries()) if (typeof item === 'string') yield { text: item, yamlPath: [...yamlPath, i] };
}

/** Every extraction a run performs: operations, inline and actor logins, chain steps, refreshes. */
function* extractions(project: Project): Generator<ExtractSpec> {
  const fromRequests = function* (requests: Array<RequestSpec | undefined>) {
    for (const r of requests) if (r) yield* r.extract;
  };
  for (const op of project.operations.values()) {
    yield* op.extract;
    yield* fromRequests([op.auth?.login, ...(op.auth?.steps ?? [])]);
  }
  for (const actor of project.actors.values()) {
    yield* fromRequests([actor.auth?.login, ...(actor.auth?.steps ?? []), actor.session?.refresh]);
  }
}

/** Point at the path string itself: the value, or `path` of an explicit `{path, source}` map. */
function pathOfExtraction(file: SourceFile | undefined, yamlPath: YamlPath): YamlPath {
  let node: unknown = file?.value;
  for (const key of yamlPath)
    node = typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined;
  return isRawMap(node) ? [...yamlPath, 'path'] : yamlPath;
}

export default expressionsRule;
