// The data flows one way: files -> project -> graph/lint -> http -> auth -> runtime -> runner ->
// calibrate/report/open -> vitest/cli. Each stage is one folder and imports only from the stages
// before it, and from outside a stage only through its index.ts. What each stage may import is the
// table of docs/contributing.md#the-stages, read here; every import of src/ is read from its syntax
// tree (oxc), so side-effect imports, backticks, require() and `typeof import()` count too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'oxc-parser';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');
const CONTRIBUTING = path.resolve(__dirname, '../docs/contributing.md');

/**
 * stage -> the stages it may import from (besides itself), read from the table of
 * docs/contributing.md#the-stages: the doc and this test cannot disagree, there is one table.
 */
function stageTable(markdown: string): Record<string, string[]> {
  const section = markdown.slice(markdown.indexOf('## The stages'));
  const table: Record<string, string[]> = {};
  for (const line of section.split('\n')) {
    if (line.startsWith('## ') && line !== '## The stages') break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1].startsWith('`')) continue;
    const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/(\/|\.ts)$/, ''));
    for (const stage of names(cells[1])) table[stage] = names(cells[cells.length - 2]);
  }
  return table;
}

const ALLOWED = stageTable(readFileSync(CONTRIBUTING, 'utf8'));

/** Packages that must stay out of the early stages (Hurl's hurl_core reaches no network). */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  project: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest)/,
  graph: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest|yaml)/,
  lint: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest)/,
  import: /^(undici|tinypool|@napi-rs\/keyring|vitest)/,
  // reports are formatted from results: no network, no Vitest
  report: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest)/,
};

/** The imports whose specifier is computed at run time, each with why. */
const COMPUTED_IMPORTS: Record<string, string> = {
  'runtime/hooks/hook-worker.js': "the user's hook file, by file URL with a version query",
  'lint/schema/validators.ts': 'the precompiled validators the build writes beside it',
  'project/lazy.ts': "lazy(id) loads the package its caller names; this test reads that caller's lazy('…')",
};

function stageOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel[0].replace(/\.(ts|js)$/, '');
}

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (/\.(ts|js)$/.test(e.name)) yield p;
  }
}

interface Import {
  /** the specifier, or undefined when it is computed (`import(url)`, a template with `${}`) */
  spec: string | undefined;
  /** static: `import`/`export … from`, a side-effect `import '…'`, `typeof import('…')`; dynamic: `import()`, `require()` */
  kind: 'static' | 'dynamic';
  line: number;
}

/**
 * Every import of a source file, read from its syntax tree (not with a regular expression, which
 * misses side-effect imports and backticks, and reads imports inside comments and strings).
 */
const parsed = new Map<string, Import[]>();
function importsOf(file: string, text: string): Import[] {
  const key = `${file}\0${text}`;
  let found = parsed.get(key);
  if (!found) parsed.set(key, (found = readImports(file, text)));
  return found;
}

type Node = { type?: string; start: number; [k: string]: unknown };

/** A string literal or a template without `${}`: the specifier; anything else is computed. */
function literal(node: Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  const quasis = node?.type === 'TemplateLiteral' ? (node.quasis as { value: { cooked: string } }[]) : undefined;
  return quasis?.length === 1 ? quasis[0].value.cooked : undefined;
}

function readImports(file: string, text: string): Import[] {
  const parsed = parseSync(file, text);
  if (parsed.errors.length) throw new Error(`${file}: ${parsed.errors[0].message}`);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const out: Import[] = [];
  const at = (start: number, spec: string | undefined, kind: Import['kind']) => out.push({ spec, kind, line: lineOf(start) });
  // The module record (no syntax tree built in JS: fast): import and export declarations, side-effect
  // imports, import() with the text of its argument.
  const { staticImports, staticExports, dynamicImports } = parsed.module;
  for (const i of staticImports) at(i.start, i.moduleRequest.value, 'static');
  for (const e of staticExports) for (const entry of e.entries) if (entry.moduleRequest) at(e.start, entry.moduleRequest.value, 'static');
  for (const d of dynamicImports) at(d.start, specifierText(text.slice(d.moduleRequest.start, d.moduleRequest.end)), 'dynamic');
  // The rest needs the tree, built only for the files that may hold it: require(), lazy(),
  // createRequire()(…), `typeof import('…')`.
  if (!/\b(require|lazy|createRequire)\b|\bimport\s*\(/.test(text)) return out;
  const callee = (node: Node) => node.callee as Node & { name?: string; callee?: { name?: string } };
  // walked with a stack: a deep expression must not overflow the test
  const stack: unknown[] = [parsed.program];
  while (stack.length) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...(value as unknown[]));
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    const node = value as Node;
    if (node.type === 'TSImportType') at(node.start, literal((node.source ?? (node.argument as Node)?.literal ?? node.argument) as Node), 'static');
    else if (node.type === 'TSExternalModuleReference') at(node.start, literal(node.expression as Node), 'static');
    else if (node.type === 'CallExpression') {
      const c = callee(node);
      const loads =
        (c.type === 'Identifier' && (c.name === 'require' || c.name === 'lazy')) || (c.type === 'CallExpression' && c.callee?.name === 'createRequire');
      if (loads) at(node.start, literal((node.arguments as Node[])[0]), 'dynamic');
    }
    for (const k in node) if (node[k] && typeof node[k] === 'object') stack.push(node[k]);
  }
  return out;
}

/** The specifier of `import(<text>)`: a quoted string or a template without `${}`; else computed (undefined). */
function specifierText(arg: string): string | undefined {
  const m = /^(['"`])([^'"`\\$]*)\1$/.exec(arg.trim());
  return m ? m[2] : undefined;
}

function stageViolations(file: string, text = readFileSync(file, 'utf8')): string[] {
  const from = stageOf(file);
  const rel = path.relative(SRC, file);
  const allowed = ALLOWED[from];
  if (!allowed) return [`${rel}: stage "${from}" is not in the table of docs/contributing.md#the-stages`];
  const out: string[] = [];
  for (const { spec, line } of importsOf(file, text)) {
    if (spec === undefined) {
      if (!(rel.split(path.sep).join('/') in COMPUTED_IMPORTS)) out.push(`${rel}:${line} imports a computed specifier`);
    } else if (spec.startsWith('.')) {
      const target = stageOf(path.resolve(path.dirname(file), spec));
      if (target !== from && !allowed.includes(target)) out.push(`${rel}:${line} (${from}) imports ${spec} (${target})`);
    } else if (FORBIDDEN_PACKAGES[from]?.test(spec)) {
      out.push(`${rel}:${line} (${from}) imports the package ${spec}`);
    }
  }
  return out;
}

function surfaceViolations(file: string, text = readFileSync(file, 'utf8')): string[] {
  const out: string[] = [];
  for (const { spec, kind, line } of importsOf(file, text)) {
    if (kind !== 'static' || !spec?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec);
    const rel = path.relative(SRC, target).split(path.sep);
    if (rel.length === 1 || stageOf(target) === stageOf(file)) continue;
    if (rel.length !== 2 || rel[1] !== 'index.js') out.push(`${path.relative(SRC, file)}:${line} imports ${spec}`);
  }
  return out;
}

describe('architecture', () => {
  const files = [...sourceFiles(SRC)];

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('the stage table of docs/contributing.md names every stage, and only stages', () => {
    const stages = new Set(files.map(stageOf));
    expect(Object.keys(ALLOWED).sort()).toEqual([...stages].sort());
    const unknown = Object.entries(ALLOWED).flatMap(([stage, may]) => may.filter((s) => !stages.has(s)).map((s) => `${stage} -> ${s}`));
    expect(unknown).toEqual([]);
  });

  it('every stage imports only from the stages before it', () => {
    expect(files.flatMap((f) => stageViolations(f))).toEqual([]);
  });

  // A stage's index.ts is its surface: what later stages may use of it. A dynamic import() may
  // reach a module inside (lazy loading, for start-up time).
  it('from outside a stage, a static import reaches only its index.ts', () => {
    expect(files.flatMap((f) => surfaceViolations(f))).toEqual([]);
  });

  // The checks themselves, on planted violations: a check that sees nothing passes too.
  it('sees side-effect imports, backticks, require() and computed specifiers', () => {
    const graphFile = path.join(SRC, 'graph/planted.ts');
    const planted = (text: string) => stageViolations(graphFile, text);
    expect(planted("import '../runner/index.js';")).toEqual([expect.stringContaining('imports ../runner/index.js (runner)')]);
    expect(planted('const m = await import(`../runner/index.js`);')).toEqual([expect.stringContaining('(runner)')]);
    expect(planted("export * from '../runner/index.js';")).toHaveLength(1);
    expect(planted("type R = typeof import('../runner/index.js');")).toHaveLength(1);
    expect(planted("const r = createRequire(import.meta.url)('undici');")).toEqual([expect.stringContaining('the package undici')]);
    expect(planted('const m = await import(`../${name}/index.js`);')).toEqual([expect.stringContaining('computed')]);
    expect(planted("// import '../runner/index.js' in a comment is no import\nconst s = \"import '../runner/index.js'\";")).toEqual([]);
    expect(planted("import { buildGraph } from './build.js';\nimport type { Project } from '../project/index.js';")).toEqual([]);
    expect(surfaceViolations(graphFile, "import '../runner/state.js';")).toHaveLength(1);
    expect(surfaceViolations(graphFile, "const m = await import('../runner/state.js');")).toEqual([]);
  });

  it('no source file passes 400 lines', () => {
    const long = files.map((f) => [path.relative(SRC, f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });
});
