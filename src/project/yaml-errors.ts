// The yaml library's parse errors as a user can act on them: one per file, and for bad
// indentation the line at fault and the fix, instead of the library's own words ("Nested
// mappings are not allowed in compact mappings", "Implicit keys need to be on a single line").
// Only the first is the user's slip: after it the parser's recovery misreads the lines that
// follow (after a tab, every later key of the mapping is "a compact mapping"), so the rest
// would flag correct lines.
import type { LineCounter, YAMLError } from 'yaml';

export interface YamlProblem {
  line: number;
  col: number;
  message: string;
}

/** A value on its key's line, then a line indented deeper: YAML reads both as one key. */
const DEEPER = new Set(['BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);
const SAME_COLUMN = 'keys of one mapping start in the same column';

/**
 * The first problem in the file (none when `errors` is empty).
 * @param plain the message of an error this module has nothing better for
 */
export function yamlProblems(errors: readonly YAMLError[], text: string, lineCounter: LineCounter, plain: (e: YAMLError) => string): YamlProblem[] {
  const lines = text.split(/\r?\n/);
  let first: YamlProblem | undefined;
  for (const e of errors) {
    const { line, col } = lineCounter.linePos(e.pos[0]);
    const p = indentation(e, line, lines) ?? { line, col, message: e.code === 'TAB_AS_INDENT' ? `${plain(e)}: indent with spaces` : plain(e) };
    // a mis-indented line is found one line above it (indentation() moves it down): by position, not by order
    if (!first || p.line < first.line || (p.line === first.line && p.col < first.col)) first = p;
  }
  return first ? [first] : [];
}

function indentation(e: YAMLError, line: number, lines: string[]): YamlProblem | undefined {
  if (DEEPER.has(e.code)) {
    const next = contentLine(lines, line, 1);
    if (next === undefined || indentOf(lines[next - 1]) <= indentOf(lines[line - 1])) return undefined;
    const col = indentOf(lines[next - 1]) + 1;
    const above = `${keyOf(lines[line - 1])}on line ${line}`;
    return {
      line: next,
      col,
      message: `YAML: this line is indented more than the key ${above} (column ${col}, not ${indentOf(lines[line - 1]) + 1}): ${SAME_COLUMN}`,
    };
  }
  if (e.code === 'BAD_INDENT') {
    const prev = contentLine(lines, line, -1);
    if (prev === undefined) return undefined;
    const col = indentOf(lines[line - 1]) + 1;
    const want = indentOf(lines[prev - 1]) + 1;
    if (col === want) return undefined;
    return { line, col, message: `YAML: this line starts in column ${col}, the key ${keyOf(lines[prev - 1])}above it in column ${want}: ${SAME_COLUMN}` };
  }
  return undefined;
}

/** The nearest line before (`step` -1) or after (+1) `line` that holds more than a comment. */
function contentLine(lines: string[], line: number, step: 1 | -1): number | undefined {
  for (let n = line + step; n >= 1 && n <= lines.length; n += step) {
    const t = lines[n - 1].trim();
    if (t && !t.startsWith('#')) return n;
  }
  return undefined;
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/** `"path" ` for a line `  path: /x`, or nothing when the line is no plain key. */
function keyOf(text: string): string {
  const m = /^\s*(?:-\s+)?([\w.$-]+)\s*:/.exec(text);
  return m ? `"${m[1]}" ` : '';
}
