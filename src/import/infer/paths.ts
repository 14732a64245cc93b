// Path templates: an observed path split into segments of literal text and placeholders.
// `{name}` is a documented parameter (OpenAPI, Markdown), `{{name}}` a collection variable
// (Postman); traffic values found to come from an earlier response become `value` parts.

export type PathPart = { kind: 'text'; text: string } | { kind: 'var'; name: string; style: 'param' | 'variable' | 'value'; value?: string };

export type Segment = PathPart[];

const PART_RE = /\{\{\s*([^{}]+?)\s*\}\}|\{([^{}/]+)\}/g;

export function parsePath(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((seg) => {
      const parts: PathPart[] = [];
      let last = 0;
      for (const m of seg.matchAll(PART_RE)) {
        if (m.index > last) parts.push({ kind: 'text', text: seg.slice(last, m.index) });
        parts.push(m[1] !== undefined ? { kind: 'var', name: m[1], style: 'variable' } : { kind: 'var', name: m[2], style: 'param' });
        last = m.index + m[0].length;
      }
      if (last < seg.length || parts.length === 0) parts.push({ kind: 'text', text: seg.slice(last) });
      return parts;
    });
}

/** True when the whole segment is one placeholder. */
export function isVarSegment(seg: Segment): boolean {
  return seg.length === 1 && seg[0].kind === 'var';
}

export function segmentText(seg: Segment): string | undefined {
  return seg.length === 1 && seg[0].kind === 'text' ? seg[0].text : undefined;
}

/** The shape of a path: placeholders as `{}`; equal shapes are the same endpoint. */
export function shapeOf(segments: Segment[]): string {
  return `/${segments.map((s) => s.map((p) => (p.kind === 'text' ? p.text : '{}')).join('')).join('/')}`;
}

/** The shape of a collection's path, without trailing slashes: `/items/` and `/items` are one. */
export function collectionShape(segments: Segment[]): string {
  return shapeOf(segments).replace(/\/+$/, '');
}

/** Render a template, each placeholder replaced by `render(part)`. */
export function renderPath(segments: Segment[], render: (part: Extract<PathPart, { kind: 'var' }>, index: number) => string): string {
  return `/${segments.map((s, i) => s.map((p) => (p.kind === 'text' ? p.text : render(p, i))).join('')).join('/')}`;
}
