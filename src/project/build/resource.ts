// A resource file or inline entry (docs/format.md#resources) and its operations.
import type { Operation, Resource, YamlPath } from '../types.js';
import type { Locator } from './origin.js';
import { buildOperation } from './operation.js';
import { asMap, asString, type RawMap } from './values.js';

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
  return { resource, operations };
}
