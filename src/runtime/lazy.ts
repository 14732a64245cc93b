// Libraries most runs never need (cookies, XPath) are loaded on first use, synchronously:
// `flow run` start-up pays only for what a project uses.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazy<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}
