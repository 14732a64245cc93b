// The keys each auth strategy reads, as the JSON Schema lists them (common.schema.json
// `auth`): the one list that editors, lint and the README agree on.
import { readSchema } from './sources.js';

let byKey: Map<string, string[]> | undefined;

/** The strategies whose auth map reads `key` (`secret_key` -> aws_sigv4), in schema order. */
export function strategiesReading(key: string): string[] {
  byKey ??= index();
  return byKey.get(key) ?? [];
}

function index(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const auth = (readSchema('common.schema.json').definitions as Record<string, { allOf?: unknown[] }>).auth;
  for (const branch of (auth.allOf ?? []) as Array<{
    if?: { properties?: { strategy?: { const?: string } } };
    then?: { properties?: Record<string, unknown> };
  }>) {
    const strategy = branch.if?.properties?.strategy?.const;
    if (!strategy) continue;
    for (const key of Object.keys(branch.then?.properties ?? {})) {
      if (key === 'strategy') continue;
      out.set(key, [...(out.get(key) ?? []), strategy]);
    }
  }
  return out;
}
