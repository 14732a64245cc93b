// A resource file or inline entry (docs/format.md#resources) and its operations.
import type { Operation, Resource, Sharing, YamlPath } from '../types.js';
import type { Locator } from './origin.js';
import { buildOperation } from './operation.js';
import { asMap, asString, asStringList, type RawMap } from './values.js';

export function buildResource(id: string, raw: RawMap, file: string, yamlPath: YamlPath, at: Locator): { resource: Resource; operations: Operation[] } {
  const operations: Operation[] = [];
  for (const [name, opRaw] of Object.entries(asMap(raw.operations) ?? {})) {
    operations.push(buildOperation(id, name, opRaw, file, [...yamlPath, 'operations', name], at));
  }
  const resource: Resource = {
    id,
    description: asString(raw.description),
    operations: operations.map((o) => o.id),
    file,
    yamlPath,
    loc: at(yamlPath),
  };
  const shared = sharing(raw.shared);
  if (shared) resource.shared = shared;
  return { resource, operations };
}

/**
 * `shared: true` (every actor, every access), `{ with, access }`, or a sequence of such maps
 * (each its actors and access: editors write, viewers read); anything else is not shared (lint: E_SCHEMA).
 */
function sharing(v: unknown): Sharing[] | undefined {
  if (v === true) return [{ access: 'write' }];
  const grants = (Array.isArray(v) ? v : [v]).flatMap((g, index) => {
    const m = asMap(g);
    if (!m) return [];
    const out: Sharing = { access: m.access === 'read' ? 'read' : 'write' };
    if (m.with !== undefined) out.with = asStringList(m.with);
    if (Array.isArray(v)) out.index = index;
    return [out];
  });
  return grants.length ? grants : undefined;
}
