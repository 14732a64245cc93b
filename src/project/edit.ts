// Editing project files in place (docs/design.md#edits-in-place: --record, --fix): the file is parsed again and changed
// through the YAML Document API; only the lines the change touches are written back (see
// splice.ts), so comments, key order and layout of everything else stay as the user wrote them.
// The file is read and written through write.ts: a regular file inside the project, replaced
// atomically.
import type { Document, ToStringOptions } from 'yaml';
import { yamlLib } from './lazy.js';
import { spliceChange } from './splice.js';
import { readForEdit, writeProjectFile } from './write.js';
import { YAML_TAGS } from './yaml.js';

/** Edit `file` of the project in `projectDir`; throws E_WRITE_* when it is not a regular file inside. */
export async function editYamlFile(projectDir: string, file: string, change: (doc: Document.Parsed) => boolean | void): Promise<boolean> {
  const text = readForEdit(projectDir, file);
  const doc = yamlLib().parseDocument(text, { customTags: YAML_TAGS, keepSourceTokens: true });
  if (doc.errors.length) return false;
  if (change(doc) === false) return false;
  const out = editedText(text, doc);
  if (out === text) return false;
  writeProjectFile(projectDir, file, out);
  return true;
}

/**
 * The text of `doc`, a changed parse of `original`: the original with only the changed lines
 * replaced when that means exactly the same document, else the library's render of it.
 */
export function editedText(original: string, doc: Document): string {
  const { parseDocument } = yamlLib();
  const options = renderOptions(original);
  const after = doc.toString(options);
  const unchanged = parseDocument(original, { customTags: YAML_TAGS });
  if (unchanged.errors.length) return after;
  const spliced = spliceChange(original, unchanged.toString(options), after);
  if (spliced === undefined) return after;
  // The check: the spliced text must parse to the changed document, comments included.
  const check = parseDocument(spliced, { customTags: YAML_TAGS });
  return check.errors.length === 0 && check.toString(options) === after ? spliced : after;
}

/** Render in the file's own indentation, so that added lines line up with their neighbours. */
function renderOptions(text: string): ToStringOptions {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  const steps = new Map<number, number>();
  let indentSeq = true;
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!/:\s*(?:#.*)?$/.test(lines[i])) continue; // a key that opens a block
    const parent = indentOf(lines[i]);
    const child = indentOf(lines[i + 1]);
    const item = lines[i + 1].trimStart().startsWith('- ');
    if (item && child === parent) indentSeq = false;
    else if (!item && child > parent) steps.set(child - parent, (steps.get(child - parent) ?? 0) + 1);
  }
  const common = [...steps].sort((a, b) => b[1] - a[1])[0]?.[0];
  const indent = common && common <= 8 ? common : 2;
  return { lineWidth: 0, indent, indentSeq };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
