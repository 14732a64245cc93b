// YAML with positions: one parse per file, the document and its LineCounter are kept so any
// node can be located later without parsing again. `!secret NAME` is the only tag (docs/format.md#secret-tag).
import type { Document, LineCounter, ScalarTag } from 'yaml';
import { diag } from './diagnostics.js';
import { keyDiagnostics } from './keys.js';
import { yamlLib } from './lazy.js';
import { yamlProblems } from './yaml-errors.js';
import { secretRef, type Diagnostic } from './types.js';

const secretTag: ScalarTag = {
  tag: '!secret',
  resolve: (value: string) => secretRef(value.trim()),
  // Written back as `!secret NAME` when the importer or --fix edits a file.
  identify: (value: unknown) => typeof value === 'object' && value !== null && (value as { __reqflow?: unknown }).__reqflow === 'secret',
  stringify: (item) => String((item.value as { name: string }).name),
};

export const YAML_TAGS = [secretTag];

/** A YAML alias bomb: more than this many alias expansions are refused, not expanded. */
const MAX_ALIAS_EXPANSIONS = 100;

/**
 * The yaml library's `maxAliasCount` for that limit, for every `toJS` of a project document.
 * One more: the library counts the anchor itself as 1, so `100` would refuse the 100th alias.
 */
export const MAX_ALIAS_COUNT = MAX_ALIAS_EXPANSIONS + 1;

export interface ParsedYaml {
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** the document as plain JS (SecretRefs for `!secret`), undefined when the parse failed */
  value: unknown;
  diagnostics: Diagnostic[];
}

/** What the yaml library reads of the environment (its debug switches), and nothing else. */
function yamlEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own: NodeJS.ProcessEnv = {};
  if (env.LOG_TOKENS !== undefined) own.LOG_TOKENS = env.LOG_TOKENS;
  if (env.LOG_STREAM !== undefined) own.LOG_STREAM = env.LOG_STREAM;
  return own;
}

export function parseYaml(text: string, file: string): ParsedYaml {
  const { LineCounter, parseDocument } = yamlLib();
  const lineCounter = new LineCounter();
  const diagnostics: Diagnostic[] = [];
  let doc: Document.Parsed;
  const env = process.env;
  try {
    // The yaml parser reads process.env.LOG_TOKENS and LOG_STREAM for every token, and
    // process.env is a slow native getter: a plain object with just those two for the length
    // of this synchronous call makes large projects parse about 15% faster. (A copy of the
    // whole environment cost ~90 µs per file: 45 ms for a project of 500 files.)
    process.env = yamlEnv(env);
    // logLevel: the library's own warnings ("Keys with collection values will be stringified")
    // would go to stderr; what they are about is reported as diagnostics (keys.ts).
    doc = parseDocument(text, { lineCounter, customTags: YAML_TAGS, prettyErrors: false, keepSourceTokens: false, logLevel: 'error' });
  } catch (err) {
    // The parser recurses on nesting; a pathological depth ends in a RangeError.
    const empty = parseDocument('', { lineCounter: new LineCounter() });
    diagnostics.push(diag('E_YAML_PARSE', `cannot parse YAML: ${tooDeep(err) ? 'nesting too deep' : String((err as Error).message)}`, file));
    return { doc: empty, lineCounter, value: undefined, diagnostics };
  } finally {
    process.env = env;
  }
  for (const p of yamlProblems(doc.errors, text, lineCounter, (e) => `YAML: ${tooDeep(e) ? 'nesting too deep' : firstLine(e.message)}`)) {
    diagnostics.push(diag('E_YAML_PARSE', p.message, file, p.line, p.col));
  }
  for (const w of doc.warnings) {
    const { line, col } = lineCounter.linePos(w.pos[0]);
    if (w.code === 'TAG_RESOLVE_FAILED') {
      diagnostics.push(diag('W_UNKNOWN_TAG', `${firstLine(w.message)}: !secret is the only tag; the value is read as plain text`, file, line, col));
    } else {
      diagnostics.push(diag('W_YAML', `YAML: ${firstLine(w.message)}`, file, line, col));
    }
  }
  if (doc.errors.length) return { doc, lineCounter, value: undefined, diagnostics };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const msg = tooDeep(err)
      ? 'nesting too deep'
      : /alias/i.test(String((err as Error).message))
        ? `too many YAML aliases (more than ${MAX_ALIAS_EXPANSIONS} expansions): refused as a possible alias bomb`
        : firstLine(String((err as Error).message));
    diagnostics.push(diag('E_YAML_PARSE', `YAML: ${msg}`, file));
    return { doc, lineCounter, value: undefined, diagnostics };
  }
  if (depthOf(value) > MAX_DEPTH) {
    diagnostics.push(diag('E_YAML_PARSE', `YAML: nesting deeper than ${MAX_DEPTH} levels`, file));
    return { doc, lineCounter, value: undefined, diagnostics };
  }
  // After the depth check: the walk recurses.
  diagnostics.push(...keyDiagnostics(doc, text, file, lineCounter));
  return { doc, lineCounter, value, diagnostics };
}

/** Deeper values are refused so that every later walk (graph, lint, render) is safe to recurse. */
const MAX_DEPTH = 64;

function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (d > MAX_DEPTH) return d;
    if (typeof v === 'object' && v !== null) for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

function tooDeep(err: unknown): boolean {
  return err instanceof RangeError || /call stack|too much recursion/i.test(String((err as Error)?.message));
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
