// Editing project files in place (R7, --record, --fix): the file is parsed again, changed
// through the YAML Document API and written back, so comments, key order and formatting
// of everything untouched stay as the user wrote them.
import { readFile, writeFile } from 'node:fs/promises';
import { parseDocument, type Document } from 'yaml';
import { YAML_TAGS } from './yaml.js';

export async function editYamlFile(file: string, change: (doc: Document.Parsed) => boolean | void): Promise<boolean> {
  const text = await readFile(file, 'utf8');
  const doc = parseDocument(text, { customTags: YAML_TAGS, keepSourceTokens: true });
  if (doc.errors.length) return false;
  if (change(doc) === false) return false;
  const out = doc.toString({ lineWidth: 0 });
  if (out === text) return false;
  await writeFile(file, out);
  return true;
}
