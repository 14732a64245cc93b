// One operation map (docs/format.md#operations) into the model. Wrong types are dropped here and reported by lint.
import type { Loc, Operation, PollSpec, Provenance, RetrySpec, YamlPath } from '../types.js';
import { buildAuth } from './auth.js';
import type { Locator } from './origin.js';
import { buildRequestFields } from './request.js';
import { asInt, asMap, asString, asStringList, type RawMap } from './values.js';

const POLL_DEFAULTS = { intervalMs: 1000, maxAttempts: 30 };

export function buildOperation(resource: string, name: string, raw: unknown, file: string, yamlPath: YamlPath, at: Locator): Operation {
  const map: RawMap = asMap(raw) ?? {};
  return {
    id: `${resource}.${name}`,
    resource,
    name,
    ...buildRequestFields(map, file, yamlPath, at),
    actor: nonEmpty(asString(map.actor)),
    dependsOn: asStringList(map.depends_on),
    // docs/format.md#silent-not-sequence: `assert` must be a sequence or it is ignored
    assert: asStringList(map.assert),
    assertLocs: assertLocs(map.assert, [...yamlPath, 'assert'], at),
    pollUntil: buildPoll(map.poll_until),
    forEach: nonEmpty(asString(map.for_each)),
    force: map.force === true,
    actsOnExisting: map.acts_on === 'existing',
    auth: buildAuth(map.auth, file, [...yamlPath, 'auth'], at),
    timeoutMs: positive(asInt(map.timeout)),
    retry: buildRetry(map.retry),
    preRequest: asString(map.pre_request),
    postResponse: asString(map.post_response),
    provenance: buildProvenance(map._provenance),
    raw: map,
    file,
    yamlPath,
    loc: at(yamlPath),
  };
}

/** The position of each string item of `assert` (the items `asStringList` keeps). */
function assertLocs(raw: unknown, yamlPath: YamlPath, at: Locator): Loc[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item, i) => (typeof item === 'string' ? [at([...yamlPath, i], false)] : []));
}

function nonEmpty(s: string | undefined): string | undefined {
  return s && s.trim() ? s.trim() : undefined;
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}

function buildPoll(raw: unknown): PollSpec | undefined {
  if (typeof raw === 'string' || Array.isArray(raw)) return { condition: conditionList(raw), ...POLL_DEFAULTS };
  const map = asMap(raw);
  if (!map) return undefined;
  return {
    condition: conditionList(map.condition),
    intervalMs: asInt(map.interval) ?? POLL_DEFAULTS.intervalMs,
    maxAttempts: positive(asInt(map.max_attempts)) ?? POLL_DEFAULTS.maxAttempts,
  };
}

function conditionList(raw: unknown): string[] {
  return typeof raw === 'string' ? [raw] : asStringList(raw);
}

function buildRetry(raw: unknown): RetrySpec | undefined {
  const map = asMap(raw);
  if (!map) return undefined;
  return { max: Math.max(0, asInt(map.max) ?? 3), backoffMs: Math.max(0, asInt(map.backoff) ?? 500) };
}

function buildProvenance(raw: unknown): Provenance | undefined {
  const map = asMap(raw);
  if (!map) return undefined;
  const evidence = asMap(map.evidence);
  return {
    source: asString(map.source),
    evidence: evidence ? Object.fromEntries(Object.entries(evidence).map(([k, v]) => [k, String(v)])) : undefined,
    verifiedAgainst: asString(map.verified_against),
  };
}
