// Walking plain values: every string with its path, and the references inside it.
import { parseTemplate, refsOf, type Expr } from '../../graph/index.js';
import type { ViewFile } from './view.js';

export interface StringSite {
  file: ViewFile;
  where: string;
  key: string;
  text: string;
}

export function* stringsOf(file: ViewFile, value: unknown, where: string, key = ''): Generator<StringSite> {
  if (typeof value === 'string') yield { file, where, key, text: value };
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* stringsOf(file, value[i], `${where}[${i}]`, key);
  else if (typeof value === 'object' && value !== null && !('__reqflow' in value)) {
    for (const [k, v] of Object.entries(value)) yield* stringsOf(file, v, where ? `${where}.${k}` : k, k);
  }
}

export function* allStrings(files: ViewFile[]): Generator<StringSite> {
  for (const f of files) yield* stringsOf(f, f.value, '');
}

export function refsIn(text: string): { refs: Expr[]; errors: string[] } {
  if (!text.includes('{{')) return { refs: [], errors: [] };
  const parts = parseTemplate(text);
  return { refs: [...refsOf(parts)], errors: parts.filter((p) => p.kind === 'error').map((p) => (p.kind === 'error' ? p.message : '')) };
}
