// An environment file or the root's inline `environment` (docs/format.md#environments).
import type { Environment, YamlPath } from '../types.js';
import type { Locator } from './origin.js';
import { asMap, asTemplateMap, type RawMap } from './values.js';

export function buildEnvironment(id: string, raw: RawMap, file: string, yamlPath: YamlPath, at: Locator): Environment {
  return { id, variables: asTemplateMap(asMap(raw.variables)), file, yamlPath, loc: at(yamlPath) };
}
