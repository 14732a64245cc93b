// One module per extraction source (spec 2.7), all with this shape.
import type { ExtractSource, ExtractSpec } from '../../project/types.js';
import type { FlowResponse } from '../response.js';

export interface Extracted {
  /** every match, in document order */
  values: unknown[];
  /** a fan-out path (`[*]`): one resource instance per value; an empty list is allowed */
  many: boolean;
}

export interface ExtractSourceModule {
  source: ExtractSource;
  /** why `path` can never work for this source (for lint), or undefined */
  check(path: string): string | undefined;
  /** throws FlowError (E_EXTRACT_FAILED, E_NOT_JSON, …) */
  read(spec: Pick<ExtractSpec, 'name' | 'path'>, res: FlowResponse): Extracted;
}
