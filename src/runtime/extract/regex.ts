// `source: regex`: a regular expression applied to the body text; the value is the first
// capture group of the first match (the whole match when the pattern has no group).
// Written as a plain pattern, or as `/pattern/flags` (g and y are ignored: first match).
import { compileRegex } from '../../graph/index.js';
import { extractFailed } from './fail.js';
import type { ExtractSourceModule } from './types.js';

export const regex: ExtractSourceModule = {
  source: 'regex',
  read(spec, res) {
    const re = compileRegex(spec.path);
    if (typeof re === 'string') throw extractFailed(spec, re);
    const m = re.exec(res.text());
    if (!m) throw extractFailed(spec, `no match in the response body (status ${res.status})`, { status: res.status });
    const value = m.length > 1 ? (m.slice(1).find((g) => g !== undefined) ?? '') : m[0];
    return { values: [value], many: false };
  },
};
