// Positions while building: a locator bound to one source file.
import { locateIn } from '../locate.js';
import type { Loc, SourceFile, YamlPath } from '../types.js';

export type Locator = (yamlPath: YamlPath, atKey?: boolean) => Loc;

export function locatorFor(source: SourceFile): Locator {
  return (yamlPath, atKey = true) => locateIn(source, yamlPath, atKey);
}
