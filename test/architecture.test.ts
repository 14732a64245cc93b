// The data flows one way: files -> project -> graph/lint -> http -> auth -> runtime -> runner ->
// calibrate/report/open -> vitest/cli. Each stage is one folder and imports only from the stages
// before it, and from outside a stage only through its index.ts; this test reads every import in src/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

/** stage -> the stages it may import from (besides itself) */
const ALLOWED: Record<string, string[]> = {
  errors: ['project'], // type-only: Loc
  // bounds on untrusted input (file kind and size, nesting, linear-time patterns), for every stage that reads it
  limits: ['errors'],
  project: ['errors', 'limits'],
  graph: ['project', 'errors'],
  lint: ['project', 'graph', 'errors'],
  // what any output must hide (secret values in every form, credential headers), for the run and
  // for what an import sends to a model
  redact: ['project', 'errors'],
  // the wire: undici, the one request type, the response object, header helpers
  http: ['project', 'errors', 'redact'],
  auth: ['project', 'graph', 'errors', 'http', 'redact'],
  // the leaves of running one operation: template, extract, assert, secrets, hooks
  runtime: ['project', 'graph', 'errors', 'http', 'redact'],
  // the runner orchestrates the leaves and the auth strategies
  runner: ['project', 'graph', 'errors', 'http', 'runtime', 'auth', 'redact'],
  // a run's neighbours: the server it starts (src/server), the description it checks responses
  // against (src/contract), the model an import asks (src/llm), and calibrate, which runs
  // operations to compare what an API answers with what the project says. The server reads
  // the credential names of src/project to hide a credential in its command.
  server: ['project', 'errors', 'redact'],
  contract: ['project', 'errors', 'http', 'runtime', 'runner', 'redact', 'limits'],
  llm: ['errors', 'redact'],
  calibrate: ['project', 'graph', 'errors', 'http', 'runtime', 'runner', 'redact'],
  // reports are formatted from results afterwards (flow run's reporters, the Vitest failure text)
  report: ['project', 'graph', 'lint', 'errors', 'http', 'runtime', 'runner', 'redact'],
  // flow explore: sequences drawn from the graph and the description, run through the runner,
  // checked against the contract; its findings have the reports' shape
  explore: ['project', 'graph', 'errors', 'http', 'runtime', 'runner', 'contract', 'redact', 'report'],
  // opening a project: load, graph, lint gate, environment check, runner (src/open)
  open: ['project', 'graph', 'lint', 'errors', 'http', 'runtime', 'auth', 'runner', 'redact'],
  vitest: ['project', 'graph', 'lint', 'errors', 'http', 'runtime', 'auth', 'runner', 'server', 'contract', 'report', 'explore', 'open', 'redact'],
  import: ['project', 'graph', 'lint', 'errors', 'redact', 'limits'],
  cli: [
    'project',
    'graph',
    'lint',
    'errors',
    'http',
    'runtime',
    'auth',
    'runner',
    'server',
    'contract',
    'llm',
    'calibrate',
    'report',
    'explore',
    'open',
    'vitest',
    'import',
    'redact',
  ],
  index: ['project', 'graph', 'lint', 'errors', 'http', 'runtime', 'auth', 'runner', 'server', 'contract', 'calibrate', 'open', 'import', 'redact'],
};

/** Packages that must stay out of the early stages (Hurl's hurl_core reaches no network). */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  project: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest)/,
  graph: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest|yaml)/,
  lint: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest)/,
  import: /^(undici|tinypool|@napi-rs\/keyring|vitest)/,
  // reports are formatted from results: no network, no Vitest
  report: /^(undici|tinypool|@napi-rs\/keyring|jose|vitest)/,
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

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('architecture', () => {
  const files = [...sourceFiles(SRC)];

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('every stage imports only from the stages before it', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = stageOf(file);
      const allowed = ALLOWED[from];
      if (!allowed) {
        violations.push(`${path.relative(SRC, file)}: stage "${from}" is not in the architecture table`);
        continue;
      }
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT_RE)) {
        const spec = m[1] ?? m[2];
        if (spec.startsWith('.')) {
          const target = stageOf(path.resolve(path.dirname(file), spec));
          if (target !== from && !allowed.includes(target)) violations.push(`${path.relative(SRC, file)} (${from}) imports ${spec} (${target})`);
        } else if (FORBIDDEN_PACKAGES[from]?.test(spec)) {
          violations.push(`${path.relative(SRC, file)} (${from}) imports the package ${spec}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  // A stage's index.ts is its surface: what later stages may use of it. A dynamic import() may
  // reach a module inside (lazy loading, for start-up time).
  it('from outside a stage, a static import reaches only its index.ts', () => {
    const violations: string[] = [];
    const STATIC_RE = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(STATIC_RE)) {
        const spec = m[1];
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        const rel = path.relative(SRC, target).split(path.sep);
        if (rel.length === 1 || stageOf(target) === stageOf(file)) continue;
        if (rel.length !== 2 || rel[1] !== 'index.js') violations.push(`${path.relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('no source file passes 400 lines', () => {
    const long = files.map((f) => [path.relative(SRC, f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });
});
