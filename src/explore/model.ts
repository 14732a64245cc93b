// The generated body with the project's own references: what explore writes in a finding's
// steps and its replay file (the probe itself renders those fields, `keepWritten`).
import { holdsReference } from '../graph/index.js';
import { isPlainObject, type TemplateValue } from '../project/index.js';

/**
 * The generated body with the project's own references kept: a top-level field the project
 * writes with a `{{…}}` (a parent's id, a `{{$.uuid}}` that must be unique) stays as written,
 * so that it comes from its real producer.
 */
export function withWrittenRefs(generated: unknown, written: TemplateValue | undefined): unknown {
  if (!isPlainObject(generated) || !isPlainObject(written)) return generated;
  const out: Record<string, unknown> = { ...generated };
  for (const [k, v] of Object.entries(written)) if (holdsReference(v)) out[k] = v;
  return out;
}
