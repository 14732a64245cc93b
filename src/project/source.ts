// A project file's text -> its SourceFile and parse diagnostics, through the parse cache when
// there is one. On a hit the YAML document is not built: the stored value and positions serve
// loading, lint and every file:line; the document is parsed from the same text only when
// something edits the file (--fix, --record, import --into).
import type { Document, LineCounter } from 'yaml';
import { yamlLib } from './lazy.js';
import type { ParseCache } from './parse-cache.js';
import { indexPositions } from './positions.js';
import type { Diagnostic, FileKind, SourceFile } from './types.js';
import { parseYaml, YAML_TAGS } from './yaml.js';

export function sourceFromText(file: string, kind: FileKind, text: string, cache?: ParseCache): { source: SourceFile; diagnostics: Diagnostic[] } {
  const key = cache?.keyOf(text);
  const hit = key ? cache!.read(key, text) : undefined;
  if (hit) {
    const source: SourceFile = { path: file, kind, value: hit.value, positions: hit.positions };
    defineLazyDocument(source, text);
    return { source, diagnostics: hit.diagnostics.map((d) => ({ ...d, file })) };
  }
  const parsed = parseYaml(text, file);
  // Nodes are located through this index whether or not it came from the cache, so a cached and
  // an uncached load report the same positions by the same code.
  const positions = indexPositions(parsed.doc, parsed.lineCounter);
  const source: SourceFile = { path: file, kind, doc: parsed.doc, lineCounter: parsed.lineCounter, value: parsed.value, positions };
  if (cache && key) {
    cache.write(key, text, {
      value: parsed.value,
      positions,
      diagnostics: parsed.diagnostics.map(({ file: _file, ...rest }) => rest),
    });
  }
  return { source, diagnostics: parsed.diagnostics };
}

/** `doc` and `lineCounter`, parsed from `text` on first use (the same text the entry was made from). */
function defineLazyDocument(source: SourceFile, text: string): void {
  let parsed: { doc: Document.Parsed; lineCounter: LineCounter } | undefined;
  const get = () => {
    if (!parsed) {
      const { LineCounter, parseDocument } = yamlLib();
      const lineCounter = new LineCounter();
      parsed = {
        doc: parseDocument(text, { lineCounter, customTags: YAML_TAGS, prettyErrors: false, keepSourceTokens: false, logLevel: 'error' }),
        lineCounter,
      };
    }
    return parsed;
  };
  Object.defineProperty(source, 'doc', { get: () => get().doc, enumerable: true, configurable: true });
  Object.defineProperty(source, 'lineCounter', { get: () => get().lineCounter, enumerable: true, configurable: true });
}
