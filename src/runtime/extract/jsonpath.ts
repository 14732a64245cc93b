// `$.data…` (JSONPath over the JSON body), `$.headers.X`, `$.cookies.x`, `$.status_code`,
// `$.body`: the path roots shared with assert (parsed in src/graph/extract-syntax.ts).
import { parsePath } from '../../graph/index.js';
import type { FlowResponse } from '../../http/index.js';
import { readPath } from './paths.js';
import { extractFailed } from './fail.js';
import type { ExtractSourceModule } from './types.js';

/** Everything up to and including the last `[*]` / `.*`: the list a fan-out walks over. */
const LAST_WILDCARD = /^(.*(?:\[\s*\*\s*\]|\.\*))/;

export const jsonpath: ExtractSourceModule = {
  source: 'jsonpath',
  read(spec, res) {
    const ref = parsePath(spec.path);
    if (typeof ref === 'string') throw extractFailed(spec, ref);
    // A read error (E_NOT_JSON, E_BODY_TRUNCATED…) is named with the variable by extractOne.
    const result = readPath(spec.path, res);
    if (ref.many) {
      if (!result.found) explainEmptyFanOut(spec, res);
      return { values: result.values, many: true };
    }
    if (!result.found) throw extractFailed(spec, `nothing found (status ${res.status})`, { status: res.status });
    return { values: result.values, many: false };
  },
};

/**
 * An empty list is a valid answer (zero instances). But when the list has items and none
 * has the field, the path is wrong: say so instead of silently creating nothing.
 */
function explainEmptyFanOut(spec: { name: string; path: string }, res: FlowResponse): void {
  const list = LAST_WILDCARD.exec(spec.path)?.[1];
  if (!list || list === spec.path) return;
  const items = readPath(list, res);
  if (items.found && items.values.length > 0) {
    throw extractFailed(spec, `${list} has ${items.values.length} item(s) but none has ${spec.path.slice(list.length)}`, { items: items.values.length });
  }
}
