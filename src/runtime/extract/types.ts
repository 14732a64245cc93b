// One module per extraction source (docs/format.md#extraction), all with this shape. Whether a path can work
// at all is checked without a response, in src/graph/extract-syntax.ts (checkExtract).
import type { ExtractSource, ExtractSpec } from '../../project/index.js';
import type { FlowResponse } from '../../http/index.js';

export interface Extracted {
  /** every match, in document order */
  values: unknown[];
  /** a fan-out path (`[*]`): one resource instance per value; an empty list is allowed */
  many: boolean;
}

export interface ExtractSourceModule {
  source: ExtractSource;
  /** throws FlowError (E_EXTRACT_FAILED, E_NOT_JSON, …) */
  read(spec: Pick<ExtractSpec, 'name' | 'path'>, res: FlowResponse): Extracted;
}
