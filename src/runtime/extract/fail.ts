// Extraction errors name the variable and the path, never the body (only an excerpt in details).
import { FlowError } from '../../errors.js';
import type { ExtractSpec } from '../../project/index.js';

type Named = Pick<ExtractSpec, 'name' | 'path'>;

export function extractFailed(spec: Named, why: string, details: Record<string, unknown> = {}): FlowError {
  return new FlowError('E_EXTRACT_FAILED', `cannot extract "${spec.name}" with ${spec.path}: ${why}`, {
    details: { variable: spec.name, path: spec.path, ...details },
  });
}

/** Keep the code of an error met while reading (E_NOT_JSON, E_BODY_TRUNCATED…), and name the variable. */
export function withVariable(spec: Named, err: unknown): FlowError {
  if (!(err instanceof FlowError) && !(err instanceof Error && 'code' in err)) return extractFailed(spec, String(err));
  const e = err as FlowError;
  return new FlowError(e.code, `cannot extract "${spec.name}" with ${spec.path}: ${e.message}`, {
    details: { ...e.details, variable: spec.name, path: spec.path },
    cause: err,
  });
}
