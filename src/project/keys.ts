// Keys the format reads are text, and a template is text too. YAML reads two things otherwise:
// a complex key (`? [a, b]`, a flow map or sequence as a key: the yaml library stringifies it
// into an id like `[ a, b ]`) and an unquoted `{{…}}`, which is a flow mapping holding a flow
// mapping (`name: {{x}}` sends `{"name":{"{ x }":null}}`). Each gets a coded error at its line.
import { isAlias, isCollection, isMap, isPair, isScalar, visit, type Document, type LineCounter, type Node, type Pair } from 'yaml';
import { diag } from './diagnostics.js';
import type { Diagnostic } from './types.js';

/** Diagnostics for every non-text key and every unquoted template of a parsed document. */
export function keyDiagnostics(doc: Document.Parsed, text: string, file: string, lineCounter: LineCounter): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (node: Node, code: string, message: string) => {
    const { line, col } = lineCounter.linePos(node.range?.[0] ?? 0);
    out.push(diag(code, message, file, line, col));
  };
  const source = (node: Node) => (node.range ? text.slice(node.range[0], node.range[1]).trim() : '');
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key as Node | null;
      if (isTemplate(key)) return undefined; // reported by Map below
      const resolved = isAlias(key) ? key.resolve(doc) : key;
      if (isCollection(resolved)) {
        at(key!, 'E_KEY_NOT_STRING', `a key must be text; YAML reads ${shorten(source(key!))} as a ${isMap(resolved) ? 'mapping' : 'sequence'}: write the key as plain text`);
      } else if (key === null || (isScalar(resolved) && resolved.value === null)) {
        const shown = key ? source(key) || 'this key' : 'an empty key';
        at(key ?? (pair.value as Node | null) ?? doc.contents!, 'E_KEY_NOT_STRING', `a key must be text; YAML reads ${shown} as no value (null): write the key as plain text, or quote it`);
      }
      return undefined;
    },
    Map(where, map, path) {
      if (!isTemplate(map)) return undefined;
      const t = source(map);
      const parent = path[path.length - 1];
      const name = isPair(parent) && isScalar(parent.key) ? String(parent.key.source ?? parent.key.value) : '…';
      const quoted = where === 'key' ? `"${t}": …` : typeof where === 'number' ? `- "${t}"` : `${name}: "${t}"`;
      at(map, 'E_TEMPLATE_UNQUOTED', `unquoted template${where === 'key' ? ' as a key' : ''}: YAML reads ${t} as a mapping, not text; quote it: ${quoted}`);
      return visit.SKIP; // the pieces of the template are no keys of their own
    },
  });
  return out;
}

/** `{{x}}` as YAML reads it: a flow mapping whose one key is a flow mapping, both without values. */
function isTemplate(node: Node | null | undefined): boolean {
  if (!isMap(node) || !node.flow || node.items.length !== 1) return false;
  const { key, value } = node.items[0] as Pair<Node | null, Node | null>;
  return isEmpty(value) && isMap(key) && key.flow === true && key.items.length === 1 && isEmpty((key.items[0] as Pair<Node | null, Node | null>).value);
}

function isEmpty(node: Node | null | undefined): boolean {
  return node === null || node === undefined || (isScalar(node) && node.value === null && !node.source);
}

function shorten(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}
