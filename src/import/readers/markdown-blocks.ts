// A Markdown document as a flat list of blocks with their lines (markdown-it tokens): headings,
// paragraphs, list items, table rows and code blocks, each with its text and inline code spans.
import MarkdownIt from 'markdown-it';

export interface Block {
  kind: 'heading' | 'text' | 'code';
  level?: number;
  /** 1-based first line */
  line: number;
  text: string;
  /** inline code spans (text blocks) */
  code: string[];
  /** link targets (text blocks) */
  links: string[];
  /** fence info (`json`, `bash`) */
  info?: string;
}

const md = new MarkdownIt({ html: true });

export function blocksOf(text: string): Block[] {
  const tokens = md.parse(text, {});
  const out: Block[] = [];
  let heading: number | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const line = (t.map?.[0] ?? 0) + 1;
    if (t.type === 'heading_open') heading = Number(t.tag.slice(1));
    if (t.type === 'fence' || t.type === 'code_block') out.push({ kind: 'code', line, text: t.content, code: [], links: [], info: t.info.trim() || undefined });
    if (t.type === 'html_block') out.push({ kind: 'text', line, text: t.content.replace(/<[^>]+>/g, ' '), code: [], links: [] });
    if (t.type !== 'inline') continue;
    const code = (t.children ?? []).filter((c) => c.type === 'code_inline').map((c) => c.content);
    const links = (t.children ?? []).filter((c) => c.type === 'link_open').map((c) => c.attrGet('href') ?? '');
    const inlineLine = (t.map?.[0] ?? tokens[i - 1]?.map?.[0] ?? 0) + 1;
    if (heading !== undefined) {
      out.push({ kind: 'heading', level: heading, line: inlineLine, text: t.content.replace(/\{:[^}]*\}\s*$/, '').trim(), code, links });
      heading = undefined;
    } else out.push({ kind: 'text', line: inlineLine, text: t.content, code, links });
  }
  return out;
}

/** GitHub-style anchor of a heading: `Users (for authentication)` -> `users-for-authentication`. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}
