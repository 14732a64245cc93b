// An environment file or the root's inline `environment` (docs/format.md#environments).
import type { Environment, YamlPath } from '../types.js';
import type { Locator } from './origin.js';
import { asMap, asStringList, asTemplateMap, type RawMap } from './values.js';

export function buildEnvironment(id: string, raw: RawMap, file: string, yamlPath: YamlPath, at: Locator): Environment {
  const env: Environment = { id, variables: asTemplateMap(asMap(raw.variables)), file, yamlPath, loc: at(yamlPath) };
  // hosts beyond baseUrl's (docs/format.md#hosts): a redirect may go to these; calibrate and explore may write to these
  if (raw.redirect_hosts !== undefined) env.redirectHosts = asStringList(raw.redirect_hosts);
  if (raw.write_hosts !== undefined) env.writeHosts = asStringList(raw.write_hosts);
  return env;
}
