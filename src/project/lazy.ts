// Libraries most runs never need (cookies, XPath, the YAML parser when every file is in the
// parse cache) are loaded on first use, synchronously: `flow run` start-up pays only for what
// a project uses.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);

export function lazy<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}

/**
 * The yaml library: a load whose files are all in the parse cache builds no YAML document, and
 * loading the library is a noticeable part of start-up. Its package serves Node the same
 * CommonJS build through `import` and `require`: one copy of its classes either way.
 */
export const yamlLib = lazy<typeof Yaml>('yaml');
