// Minimal edits: only the lines a change touches are rewritten; everything else keeps the
// user's layout. Whatever the layout, the written text means exactly the changed document.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, parse, parseDocument } from 'yaml';
import { editedText } from '../../src/project/edit.js';
import { YAML_TAGS } from '../../src/project/yaml.js';

function edit(text: string, change: (doc: ReturnType<typeof parseDocument>) => void): string {
  const doc = parseDocument(text, { customTags: YAML_TAGS });
  change(doc);
  return editedText(text, doc);
}

const RESOURCE = [
  '# Items of the shop',
  'name: item   # the resource',
  'operations:',
  '  get: # read one',
  '    path: /items/1  # one',
  '    expect_status: 200',
  '',
  '  list:',
  '    # all of them',
  '    path: /items',
  '    _provenance: { source: ai_import }',
  '# the end',
  '',
].join('\n');

describe('editedText', () => {
  it('adds lines inside their block and leaves every other line as written', () => {
    const out = edit(RESOURCE, (doc) => doc.setIn(['operations', 'get', '_provenance', 'verified_against'], 'live_capture'));
    expect(out).toBe(RESOURCE.replace('    expect_status: 200\n', '    expect_status: 200\n    _provenance:\n      verified_against: live_capture\n'));
  });

  it('changes a flow map on its own line', () => {
    const out = edit(RESOURCE, (doc) => doc.setIn(['operations', 'list', '_provenance', 'verified_against'], 'live_capture'));
    expect(out).toBe(RESOURCE.replace('{ source: ai_import }', '{ source: ai_import, verified_against: live_capture }'));
  });

  it('keeps a comment on the line of a scalar it changes', () => {
    const out = edit(RESOURCE, (doc) => doc.setIn(['operations', 'get', 'path'], '/items/2'));
    expect(out.split('\n').filter((l, i) => l !== RESOURCE.split('\n')[i])).toEqual(['    path: /items/2 # one']);
  });

  it('writes added lines in the file’s own indentation and sequence style', () => {
    const four = 'name: item\noperations:\n    get:\n        path: /x\n        query_params:\n            - a\n';
    const add = (doc: ReturnType<typeof parseDocument>) => doc.setIn(['operations', 'get', 'depends_on'], doc.createNode(['item.list']));
    expect(edit(four, add)).toBe(`${four}        depends_on:\n            - item.list\n`);
    const flush = 'name: item\noperations:\n  get:\n    path: /x\n    query_params:\n    - a\n';
    expect(edit(flush, add)).toBe(`${flush}    depends_on:\n    - item.list\n`);
  });

  it('keeps Windows line endings', () => {
    const text = RESOURCE.replace(/\n/g, '\r\n');
    const out = edit(text, (doc) => doc.setIn(['operations', 'get', 'actor'], 'admin'));
    expect(out).toBe(text.replace('    expect_status: 200\r\n', '    expect_status: 200\r\n    actor: admin\r\n'));
  });

  it('falls back to the library’s layout when a change cannot be placed, still meaning the changed document', () => {
    // Removing `get` removes its `get: # read one` line, which the library lays out differently.
    const doc = parseDocument(RESOURCE, { customTags: YAML_TAGS });
    doc.deleteIn(['operations', 'get']);
    const out = editedText(RESOURCE, doc);
    expect(out).toBe(doc.toString({ lineWidth: 0, indent: 2, indentSeq: true }));
    expect(parse(out)).toEqual({ name: 'item', operations: { list: { path: '/items', _provenance: { source: 'ai_import' } } } });
  });

  it('always means the changed document, and keeps every line of files laid out unlike the library', () => {
    const dir = path.resolve(import.meta.dirname, '../../example-project');
    const files = ['actors', 'resources', 'environments'].flatMap((d) => readdirSync(path.join(dir, d)).map((f) => path.join(dir, d, f)));
    let kept = 0;
    let checked = 0;
    for (const file of files) {
      const text = relayout(readFileSync(file, 'utf8'));
      const value = parseDocument(text, { customTags: YAML_TAGS }).toJS();
      for (const at of mappingPaths(value)) {
        const doc = parseDocument(text, { customTags: YAML_TAGS });
        if (!isMap(at.length ? doc.getIn(at, true) : doc.contents)) continue; // a !secret value
        doc.setIn([...at, 'x_added'], 'value');
        const out = editedText(text, doc);
        expect(parseDocument(out, { customTags: YAML_TAGS }).toJS()).toEqual(doc.toJS());
        checked++;
        // Adding a key to a block mapping adds lines and changes none (a flow mapping's line changes).
        const left = new Set(out.split('\n'));
        if (text.split('\n').every((line) => left.has(line))) kept++;
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(kept / checked).toBeGreaterThan(0.8);
  });
});

/** A layout the library would not write: 4-space indents, comments after keys, wide comment gaps. */
function relayout(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const indent = line.length - line.trimStart().length;
      let out = ' '.repeat(indent * 2) + line.trimStart();
      if (/^\s*[\w-]+:$/.test(out)) out += ' # opens a block';
      return out.replace(/ # /, '   # ');
    })
    .join('\n');
}

function mappingPaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((v, i) => mappingPaths(v, [...at, i]));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return [at, ...Object.entries(value).flatMap(([k, v]) => mappingPaths(v, [...at, k]))];
  }
  return [];
}
