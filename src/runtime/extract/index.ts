// Extraction (docs/format.md#extraction): one module per source behind one table.
import type { FlowError } from '../../errors.js';
import type { ExtractSource, ExtractSpec } from '../../project/index.js';
import type { FlowResponse } from '../../http/index.js';
import { extractFailed, withVariable } from './fail.js';
import { jsonpath } from './jsonpath.js';
import { regex } from './regex.js';
import type { Extracted, ExtractSourceModule } from './types.js';
import { xpath } from './xpath.js';

const SOURCES: Record<ExtractSource, ExtractSourceModule> = { jsonpath, regex, xpath };

export type { Extracted } from './types.js';
export { readPath } from './paths.js';
export { compileRegex } from '../../graph/index.js';
// Pure, so it lives in src/graph where lint uses it too.
export { checkExtract } from '../../graph/index.js';

export interface ExtractResult {
  /** scalar extractions: variable -> its (first) value */
  values: Record<string, unknown>;
  /** fan-out (`[*]`) extractions: variable -> one value per resource instance */
  many: Record<string, unknown[]>;
  /** one per variable that could not be extracted; the others are still extracted */
  errors: FlowError[];
}

type Spec = Pick<ExtractSpec, 'name' | 'path' | 'source'>;

/** Run every extraction; a failing one becomes an error, never a throw. */
export function extractAll(specs: readonly Spec[], res: FlowResponse): ExtractResult {
  const out: ExtractResult = { values: {}, many: {}, errors: [] };
  for (const spec of specs) {
    try {
      const r = extractOne(spec, res);
      if (r.many) out.many[spec.name] = r.values;
      else out.values[spec.name] = r.values[0];
    } catch (err) {
      out.errors.push(err as FlowError);
    }
  }
  return out;
}

/** One extraction; throws FlowError (E_EXTRACT_FAILED, E_NOT_JSON, E_BODY_TRUNCATED). */
export function extractOne(spec: Spec, res: FlowResponse): Extracted {
  const mod = SOURCES[spec.source];
  if (!mod) throw extractFailed(spec, `unknown source "${String(spec.source)}" (jsonpath, regex or xpath)`);
  try {
    return mod.read(spec, res);
  } catch (err) {
    throw (err as FlowError).details?.variable === spec.name ? err : withVariable(spec, err);
  }
}
