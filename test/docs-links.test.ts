// What the code relies on is written in the repository (docs/design.md, docs/format.md …), and a
// comment in src/ points there with a link that resolves in a clone: `docs/design.md#errors`.
// This test rejects a citation of a document a clone does not have (the design notes, the style
// notes or the format spec kept beside the repository, cited by name, section number or import
// rule number), and a link to a page or anchor that does not exist. The links between the docs
// themselves are checked the same way.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');

function* files(dir: string, ext: RegExp): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p, ext);
    else if (ext.test(e.name)) yield p;
  }
}

/** Citations of documents that are not in the repository: by name, by section, by rule number. */
const OUTSIDE = [
  /\bDESIGN(\.md)?\b/,
  /\bSTYLE(\.md)?\b/,
  /\bspec(ification)?\s+(§\s*)?(\d+(\.\d+)*|R[1-7]|parts?\s+\d)/i,
  /\bR[1-7]\b/,
  /\.\.\/shared\/(?!corpus)/,
];

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers: its headings' ids (duplicates numbered) and `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

const anchorCache = new Map<string, Set<string> | null>();
function anchorsAt(file: string): Set<string> | null {
  if (!anchorCache.has(file)) {
    let text: string | null;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = null;
    }
    anchorCache.set(file, text === null ? null : anchorsOf(text));
  }
  return anchorCache.get(file)!;
}

/** A link problem, or undefined when `target` (relative to `from`'s folder) resolves. */
function checkLink(fromDir: string, target: string): string | undefined {
  const [page, anchor] = target.split('#');
  const file = path.resolve(fromDir, page);
  const anchors = anchorsAt(file);
  if (!anchors) return `${target}: no file ${path.relative(ROOT, file)}`;
  if (anchor !== undefined && /\.md$/.test(page) && !anchors.has(anchor)) return `${target}: no anchor #${anchor} in ${path.relative(ROOT, file)}`;
  return undefined;
}

/** Citations and broken links in one source file's text (links are relative to the repository root). */
function sourceProblems(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const re of OUTSIDE) if (re.test(line)) out.push(`${i + 1}: cites a document outside the repository: ${line.trim()}`);
    for (const m of line.matchAll(/\b((?:docs\/[\w.-]+|README|CONTRIBUTING|BENCHMARKS)\.md(?:#[\w-]+)?)/g)) {
      const problem = checkLink(ROOT, m[1]);
      if (problem) out.push(`${i + 1}: ${problem}`);
    }
  });
  return out;
}

describe('citations in src/ resolve in a clone', () => {
  it('every src file and schema cites only documents and anchors the repository holds', () => {
    const problems: string[] = [];
    // the schemas ship too: editors show their descriptions
    for (const file of [...files(path.join(ROOT, 'src'), /\.ts$/), ...files(path.join(ROOT, 'schemas'), /\.json$/)]) {
      for (const p of sourceProblems(readFileSync(file, 'utf8'))) problems.push(`${path.relative(ROOT, file)}:${p}`);
    }
    expect(problems).toEqual([]);
  });

  it('the links between the docs resolve', () => {
    const problems: string[] = [];
    const pages = [path.join(ROOT, 'README.md'), ...files(path.join(ROOT, 'docs'), /\.md$/)];
    for (const file of pages) {
      // links in prose only: code blocks and inline code hold examples
      const text = readFileSync(file, 'utf8')
        .replace(/^\s*```[\s\S]*?^\s*```/gm, '')
        .replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        const problem = target.startsWith('#') ? checkLink(path.dirname(file), path.basename(file) + target) : checkLink(path.dirname(file), target);
        if (problem) problems.push(`${path.relative(ROOT, file)}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  // The checker itself, on what it must reject: a test that passes because it checks nothing is no test.
  it('rejects a citation of an outside document, a missing page and a missing anchor', () => {
    expect(sourceProblems('// by code, not instanceof (STYLE)')).toHaveLength(1);
    expect(sourceProblems('// the runner state (DESIGN, "State")')).toHaveLength(1);
    expect(sourceProblems('/** Spec 2.9.1: the first declared */')).toHaveLength(1);
    expect(sourceProblems('// empty keys are omitted (R3)')).toHaveLength(1);
    expect(sourceProblems('// see ../shared/DESIGN.md')).not.toHaveLength(0);
    expect(sourceProblems('// see docs/nowhere.md')).toEqual([expect.stringContaining('no file docs/nowhere.md')]);
    expect(sourceProblems('// see docs/design.md#no-such-anchor')).toEqual([expect.stringContaining('no anchor #no-such-anchor')]);
    expect(sourceProblems('// see docs/design.md#errors-by-code and docs/format.md#r3')).toEqual([]);
    expect(sourceProblems('const OUTCOME_STYLE = {}; // an identifier, not a citation')).toEqual([]);
  });

  it('reads heading ids as GitHub writes them', () => {
    expect([...anchorsOf('## `flow run`\n## Errors and diagnostics\n## Errors and diagnostics\n```\n# not a heading\n```\n')]).toEqual([
      'flow-run',
      'errors-and-diagnostics',
      'errors-and-diagnostics-1',
    ]);
  });
});
