// Every string of a value tree, with its path: the strings that may hold `{{ }}` references.
import { isLiteral, isSecretRef, type TemplateValue, type YamlPath } from '../project/index.js';

export interface TemplateString {
  text: string;
  yamlPath: YamlPath;
}

/**
 * Every string in `value` (maps, sequences, nested), in document order. `!secret` values are
 * skipped: they are resolved at run time and never hold references. Map keys are not
 * templates and are not visited.
 */
export function walkTemplates(value: TemplateValue | undefined, basePath: YamlPath): TemplateString[] {
  const out: TemplateString[] = [];
  visitStrings(value, basePath, (text, yamlPath) => out.push({ text, yamlPath }));
  return out;
}

/**
 * The callback form of `walkTemplates`, for hot paths: the path of a string is built only
 * when `wanted` accepts its text (e.g. `hasTemplate`); by default every string is visited.
 */
export function visitStrings(
  value: unknown,
  basePath: YamlPath,
  visit: (text: string, yamlPath: YamlPath) => void,
  wanted: (text: string) => boolean = () => true,
): void {
  if (typeof value === 'string') {
    if (wanted(value)) visit(value, basePath);
    return;
  }
  // a literal is data: no reference in it is one
  if (typeof value !== 'object' || value === null || isSecretRef(value) || isLiteral(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) visitChild(value[i], basePath, i, visit, wanted);
    return;
  }
  for (const key of Object.keys(value)) visitChild((value as Record<string, unknown>)[key], basePath, key, visit, wanted);
}

function visitChild(
  child: unknown,
  basePath: YamlPath,
  key: string | number,
  visit: (text: string, yamlPath: YamlPath) => void,
  wanted: (text: string) => boolean,
): void {
  // Scalars other than strings hold nothing: skip them before building a path.
  if (typeof child === 'string') {
    if (wanted(child)) visit(child, [...basePath, key]);
  } else if (typeof child === 'object' && child !== null) {
    visitStrings(child, [...basePath, key], visit, wanted);
  }
}
