// The files lint reads value by value: parsed cleanly (E_YAML_PARSE is the loader's), of a
// recognised kind, with a mapping at the top (otherwise the loader already reported it). Rules
// read the loaded value, never the YAML document: a file read from the parse cache has none.
import { isRawMap, isSecretRef, type Project, type SourceFile } from '../project/index.js';

export type LintableFile = SourceFile & { value: Record<string, unknown> };

export function lintableFiles(project: Project): LintableFile[] {
  return project.files.filter((f): f is LintableFile => f.kind !== 'discarded' && isRawMap(f.value));
}

const plainValues = new WeakMap<SourceFile, unknown>();

/**
 * The document as plain JSON for Ajv: a `!secret NAME` becomes the string `!secret NAME`, as an
 * editor given `customTags: ["!secret scalar"]` sees it. Undefined when the loader refused the
 * value (an alias bomb, nesting too deep: it reported why), which must not be expanded again.
 */
export function plainValue(file: LintableFile): unknown {
  if (plainValues.has(file)) return plainValues.get(file);
  // The loader's own copy: a second toJS of every file cost lint a fifth of its time.
  const value = replaceSecrets(file.value);
  plainValues.set(file, value);
  return value;
}

/** `value` with every SecretRef as a string; a subtree without one is the same object, not a copy. */
function replaceSecrets(value: unknown): unknown {
  if (isSecretRef(value)) return `!secret ${value.name}`;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const replaced = replaceSecrets(item);
      if (replaced !== item) (out ??= value.slice() as unknown[])[i] = replaced;
    });
    return out ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const replaced = replaceSecrets(v);
      if (replaced === v) continue;
      out ??= copyOf(value);
      // A `__proto__` key stays a plain key (as yaml's toJS keeps it), never the prototype.
      Object.defineProperty(out, k, { value: replaced, enumerable: true, writable: true, configurable: true });
    }
    return out ?? value;
  }
  return value;
}

function copyOf(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
