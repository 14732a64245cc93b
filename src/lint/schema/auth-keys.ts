// The keys each auth strategy reads, as the JSON Schema lists them (common.schema.json
// `auth`): the one list that editors, lint and the README agree on.
import { readSchema } from './sources.js';

let byKey: Map<string, string[]> | undefined;
let byStrategy: Map<string, StrategyKey[]> | undefined;

/** One key of a strategy's auth map, as the schema declares it. */
export interface StrategyKey {
  key: string;
  /** the values it may take, when the schema lists them (api_key `location`: header, query, cookie) */
  values?: string[];
  required: boolean;
}

/** The keys each strategy's auth map reads, in schema order (`simple`: the branch without a `strategy` const). */
export function strategyKeys(): Map<string, StrategyKey[]> {
  byStrategy ??= keysByStrategy();
  return byStrategy;
}

/** The strategies whose auth map reads `key` (`secret_key` -> aws_sigv4), in schema order. */
export function strategiesReading(key: string): string[] {
  byKey ??= index();
  return byKey.get(key) ?? [];
}

interface AuthBranch {
  if?: { properties?: { strategy?: { const?: string } } };
  then?: { properties?: Record<string, { enum?: unknown[] } | boolean>; required?: string[] };
}

function branches(): AuthBranch[] {
  const auth = (readSchema('common.schema.json').definitions as Record<string, { allOf?: unknown[] }>).auth;
  return (auth.allOf ?? []) as AuthBranch[];
}

function keysByStrategy(): Map<string, StrategyKey[]> {
  const out = new Map<string, StrategyKey[]>();
  for (const branch of branches()) {
    const strategy = branch.if?.properties?.strategy?.const ?? 'simple';
    const required = new Set(branch.then?.required ?? []);
    const keys: StrategyKey[] = [];
    for (const [key, schema] of Object.entries(branch.then?.properties ?? {})) {
      if (key === 'strategy') continue;
      const values = typeof schema === 'object' && Array.isArray(schema.enum) ? schema.enum.map(String) : undefined;
      keys.push({ key, required: required.has(key), ...(values ? { values } : {}) });
    }
    out.set(strategy, keys);
  }
  return out;
}

function index(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const branch of branches()) {
    const strategy = branch.if?.properties?.strategy?.const;
    if (!strategy) continue;
    for (const key of Object.keys(branch.then?.properties ?? {})) {
      if (key === 'strategy') continue;
      out.set(key, [...(out.get(key) ?? []), strategy]);
    }
  }
  return out;
}
