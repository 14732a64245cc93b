// Keys the format reads are text, and a template is text too. YAML reads two things otherwise:
// a complex key (`? [a, b]`, a flow map or sequence as a key: the yaml library stringifies it
// into an id like `[ a, b ]`) and an unquoted `{{…}}`, which is a flow mapping holding a flow
// mapping (`name: {{x}}` sends `{"name":{"{ x }":null}}`). Each gets a coded error at its line.
import type { Document, LineCounter, Node, Pair } from 'yaml';
import { yamlLib } from './lazy.js';
import { diag } from './diagnostics.js';
import type { Diagnostic } from './types.js';

/** Diagnostics for every non-text key and every unquoted template of a parsed document. */
export function keyDiagnostics(doc: Document.Parsed, text: string, file: string, lineCounter: LineCounter): Diagnostic[] {
  const { isAlias, isCollection, isMap, isScalar, isSeq } = yamlLib();
  const out: Diagnostic[] = [];
  const at = (node: Node, code: string, message: string) => {
    const { line, col } = lineCounter.linePos(node.range?.[0] ?? 0);
    out.push(diag(code, message, file, line, col));
  };
  const source = (node: Node) => (node.range ? text.slice(node.range[0], node.range[1]).trim() : '');
  // A plain recursion rather than yaml's `visit`: this runs on every file of every load, and
  // visit's bookkeeping cost several times the walk (~170 ms for 10,000 operations).
  const walk = (node: unknown, where: 'key' | 'value' | 'item', name: string): void => {
    if (isMap(node)) {
      if (isTemplate(node)) {
        const t = source(node);
        const quoted = where === 'key' ? `"${t}": …` : where === 'item' ? `- "${t}"` : `${name}: "${t}"`;
        at(node, 'E_TEMPLATE_UNQUOTED', `unquoted template${where === 'key' ? ' as a key' : ''}: YAML reads ${t} as a mapping, not text; quote it: ${quoted}`);
        return; // the pieces of the template are no keys of their own
      }
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (isScalar(key)) {
          if (key.value === null)
            at(
              key,
              'E_KEY_NOT_STRING',
              `a key must be text; YAML reads ${source(key) || 'this key'} as no value (null): write the key as plain text, or quote it`,
            );
          walk(pair.value, 'value', String(key.source ?? key.value));
          continue;
        }
        if (key === null)
          at(
            (pair.value as Node | null) ?? node,
            'E_KEY_NOT_STRING',
            'a key must be text; YAML reads an empty key as no value (null): write the key as plain text, or quote it',
          );
        else if (!isTemplate(key)) {
          const resolved = isAlias(key) ? key.resolve(doc) : key;
          if (isCollection(resolved))
            at(
              key,
              'E_KEY_NOT_STRING',
              `a key must be text; YAML reads ${shorten(source(key))} as a ${isMap(resolved) ? 'mapping' : 'sequence'}: write the key as plain text`,
            );
          else if (isScalar(resolved) && resolved.value === null)
            at(key, 'E_KEY_NOT_STRING', `a key must be text; YAML reads ${source(key)} as no value (null): write the key as plain text, or quote it`);
        }
        walk(key, 'key', '');
        walk(pair.value, 'value', '…');
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item, 'item', name);
    }
  };
  walk(doc.contents, 'value', '');
  return out;
}

/** `{{x}}` as YAML reads it: a flow mapping whose one key is a flow mapping, both without values. */
function isTemplate(node: Node | null | undefined): boolean {
  const { isMap } = yamlLib();
  if (!isMap(node) || !node.flow || node.items.length !== 1) return false;
  const { key, value } = node.items[0] as Pair<Node | null, Node | null>;
  return isEmpty(value) && isMap(key) && key.flow === true && key.items.length === 1 && isEmpty((key.items[0] as Pair<Node | null, Node | null>).value);
}

function isEmpty(node: Node | null | undefined): boolean {
  return node === null || node === undefined || (yamlLib().isScalar(node) && node.value === null && !node.source);
}

function shorten(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}
