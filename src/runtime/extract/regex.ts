// `source: regex`: a regular expression applied to the body text; the value is the first
// capture group of the first match (the whole match when the pattern has no group).
// Written as a plain pattern, or as `/pattern/flags` (g and y are ignored: first match).
import { extractFailed } from './fail.js';
import type { ExtractSourceModule } from './types.js';

const cache = new Map<string, RegExp | string>();

/** Compile a pattern; a string result is the reason it is invalid. */
export function compileRegex(pattern: string): RegExp | string {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    const slashed = /^\/([\s\S]*)\/([a-z]*)$/.exec(pattern);
    try {
      hit = slashed ? new RegExp(slashed[1], slashed[2].replace(/[gy]/g, '')) : new RegExp(pattern);
    } catch (err) {
      hit = `not a valid regular expression: ${(err as Error).message}`;
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, hit);
  }
  return hit;
}

export const regex: ExtractSourceModule = {
  source: 'regex',
  check(path) {
    const re = compileRegex(path);
    return typeof re === 'string' ? re : undefined;
  },
  read(spec, res) {
    const re = compileRegex(spec.path);
    if (typeof re === 'string') throw extractFailed(spec, re);
    const m = re.exec(res.text());
    if (!m) throw extractFailed(spec, `no match in the response body (status ${res.status})`, { status: res.status });
    const value = m.length > 1 ? (m.slice(1).find((g) => g !== undefined) ?? '') : m[0];
    return { values: [value], many: false };
  },
};
