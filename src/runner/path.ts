// The path of a request, rendered so that a value cannot change its shape (docs/format.md#path-values):
// a value inside the path is one segment, percent-encoded (`a/../../admin` is
// `a%2F..%2F..%2Fadmin`); a segment that a value leaves empty, `.` or `..` is refused, and so
// is any `.`/`..` segment at all (a URL parser would move the request up: `DELETE /items/..`
// is `DELETE /`). A reference that starts the path (`{{item.next}}`, `{{env.x}}/orders`) is a
// URL or a prefix, taken as it is; the origin rule (prepare.ts) and the dot rule still hold.
import { FlowError } from '../errors.js';
import { hasTemplate, parseCached, type TemplatePart } from '../graph/index.js';
import { renderString, type RenderContext } from '../runtime/index.js';

interface Segment {
  text: string;
  /** the reference that wrote into this segment, when one did */
  ref?: string;
}

export function renderPath(template: string, rc: RenderContext): string {
  if (!hasTemplate(template)) return checkDots(template, template);
  const parts = parseCached(template);
  // a malformed reference: renderString throws its E_TEMPLATE_SYNTAX
  if (parts.some((p) => p.kind === 'error')) return renderString(template, rc);
  let lead = '';
  const segments: Segment[] = [{ text: '' }];
  let query: string | undefined;
  for (const [i, part] of parts.entries()) {
    if (part.kind === 'error') continue;
    if (part.kind === 'ref' && i === 0) {
      lead = renderString(part.raw, rc);
      continue;
    }
    if (query !== undefined) {
      query += part.kind === 'text' ? part.text : segmentOf(part, rc);
      continue;
    }
    if (part.kind === 'ref') {
      const last = segments[segments.length - 1];
      last.text += segmentOf(part, rc);
      last.ref ??= part.raw;
      continue;
    }
    const q = part.text.indexOf('?');
    const pathText = q < 0 ? part.text : part.text.slice(0, q);
    const [first, ...rest] = pathText.split('/');
    segments[segments.length - 1].text += first;
    for (const s of rest) segments.push({ text: s });
    if (q >= 0) query = part.text.slice(q);
  }
  for (const s of segments) if (s.ref && (s.text === '' || s.text === '.' || s.text === '..')) throw refused(template, s.ref, s.text);
  return checkDots(template, lead + segments.map((s) => s.text).join('/') + (query ?? ''));
}

/** A reference's value as segment text; `{{$.url.encode('…')}}` is encoded already (and has no `/` left). */
function segmentOf(part: Extract<TemplatePart, { kind: 'ref' }>, rc: RenderContext): string {
  const value = renderString(part.raw, rc);
  return part.expr.kind === 'codec' && part.expr.codec === 'url' && part.expr.op === 'encode' ? value : encodeURIComponent(value);
}

/** `.` and `..` segments anywhere (written, or in a URL a reference gave): refused, not resolved. */
function checkDots(template: string, rendered: string): string {
  const pathPart = rendered.replace(/^https?:\/\/[^/?#]*/i, '').split(/[?#]/, 1)[0];
  for (const s of pathPart.split('/')) {
    const decoded = s.replace(/%2e/gi, '.');
    if (decoded === '.' || decoded === '..') throw refused(template, undefined, s);
  }
  return rendered;
}

function refused(template: string, ref: string | undefined, segment: string): FlowError {
  const what = segment === '' ? 'an empty segment' : `the segment "${segment}"`;
  const by = ref ? `${ref} renders to ${what}` : `it has ${what}`;
  return new FlowError(
    'E_PATH_SEGMENT',
    `path "${template}": ${by}, which would send the request to another path (an empty id on a delete is the collection; ".." is the parent): refused, nothing is sent`,
    { details: { path: template, ...(ref ? { reference: ref } : {}), segment } },
  );
}
