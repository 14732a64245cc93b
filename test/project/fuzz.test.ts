// Seeded fuzzing: valid projects mutated thousands of ways; the loader and lint must never
// throw and never hang, and every diagnostic must be well-formed.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPair, isScalar, visit } from 'yaml';
import { lint } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const CASES = Number(process.env.FUZZ_CASES ?? 2000);
const CASE_LIMIT_MS = 2000;

/** mulberry32: small, fast, reproducible */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE: Record<string, string> = {
  'flow.yaml': 'version: 1\nname: fuzz\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n  token: !secret API_TOKEN\n  who: <SET_VIA_--var>\n',
  'actors/admin.yaml':
    'name: admin\nauth:\n  strategy: simple\n  method: POST\n  path: /login\n  body: { user: "{{env.who}}", password: "{{secret.PW}}" }\n  extract:\n    token: $.data.token\nsession: { ttl: 15m }\ninject:\n  headers:\n    Authorization: "Bearer {{admin.token}}"\n',
  'resources/orders.yaml':
    'name: order\noperations:\n  create:\n    method: POST\n    path: /orders\n    actor: admin\n    body: { sku: "{{product.sku}}", at: "{{$.now + 1h}}" }\n    expect_status: [201, 200]\n    extract:\n      id: $.data.id\n  get:\n    path: /orders/{{order.id}}\n    actor: admin\n    assert: ["$.data.id == \'{{order.id}}\'"]\n  delete:\n    method: DELETE\n    path: /orders/{{order.id}}\n    depends_on: [order.get]\n',
  'resources/products.yaml':
    'name: product\noperations:\n  create:\n    method: POST\n    path: /products\n    body: { name: "{{$.faker.email}}" }\n    extract: { sku: $.data.sku, ids: "$.data[*].id" }\n  publish:\n    method: POST\n    path: /products/{{product.sku}}/publish\n    depends_on: [product.create]\n',
};

const TOKENS = [
  ':',
  '-',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '&a',
  '*a',
  '!secret',
  '!x',
  '\t',
  '\n',
  '  ',
  '{{',
  '}}',
  '#',
  '|',
  '>',
  '?',
  ',',
  '\\',
  '\u0000',
  'ü',
  '~',
  'null',
  '0',
  '-1',
  '99999999999999999999',
  'depends_on: x',
  'version: 9',
  '<<: *a',
];

/** Keys that are not text, and unquoted templates (a mapping to YAML), each `%` an indentation. */
const NOT_TEXT = [
  '? [a, b]\n%: x',
  '{{x.y}}: v',
  'null: v',
  '~: v',
  '[a]: v',
  '{a: 1}: v',
  '? { k: v }\n%: x',
  '? \n%: x',
  'k: {{env.x}}',
  'k: [{{x.y}}]',
  '? &k [a]\nk2: *k',
];

function mutate(text: string, r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const lines = text.split('\n');
  const kind = Math.floor(r() * 8);
  const pos = Math.floor(r() * (text.length + 1));
  switch (kind) {
    case 0: // insert a YAML-significant token
      return text.slice(0, pos) + pick(TOKENS) + text.slice(pos);
    case 1: // delete a span
      return text.slice(0, pos) + text.slice(pos + 1 + Math.floor(r() * 12));
    case 2: // duplicate a line
      lines.splice(Math.floor(r() * lines.length), 0, pick(lines));
      return lines.join('\n');
    case 3: // drop a line
      lines.splice(Math.floor(r() * lines.length), 1);
      return lines.join('\n');
    case 4: // re-indent a line
      {
        const i = Math.floor(r() * lines.length);
        lines[i] = r() < 0.5 ? `  ${lines[i]}` : lines[i].replace(/^ {1,2}/, '');
      }
      return lines.join('\n');
    case 5: // swap two lines
      {
        const i = Math.floor(r() * lines.length);
        const j = Math.floor(r() * lines.length);
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
      return lines.join('\n');
    case 6: // a key that is not text, or an unquoted template, beside a line of the same indentation
      {
        const i = Math.floor(r() * lines.length);
        const indent = /^\s*/.exec(lines[i])![0];
        lines.splice(i, 0, indent + pick(NOT_TEXT).replaceAll('%', indent));
      }
      return lines.join('\n');
    default: // replace a scalar after a colon with another type
      return text.replace(
        /: [^\n{[]+/,
        `: ${pick(['[]', '{}', '42', 'true', '~', '"{{x.y}}"', '[a, b]', '!secret', '&a x', '*zz', '{{env.x}}', '{{ x.y }}'])}`,
      );
  }
}

let dir: string;
let cacheDir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reqflow-fuzz-'));
  cacheDir = path.join(dir, '.cache');
  await mkdir(path.join(dir, 'environments'));
  await mkdir(path.join(dir, 'actors'));
  await mkdir(path.join(dir, 'resources'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe(`fuzz (seed ${SEED}, ${CASES} cases)`, () => {
  it('loader and lint never throw, never hang, and report well-formed diagnostics', { timeout: 240_000 }, async () => {
    const r = rng(SEED);
    const names = Object.keys(BASE);
    const seenCodes = new Set<string>();
    // The yaml library's own warnings ("Keys with collection values will be stringified") must
    // never reach the terminal: they go through process.emitWarning.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    let notText = 0;
    for (let n = 0; n < CASES; n++) {
      const files = { ...BASE };
      const rounds = 1 + Math.floor(r() * 3);
      for (let k = 0; k < rounds; k++) {
        const name = names[Math.floor(r() * names.length)];
        files[name] = mutate(files[name], r);
      }
      await Promise.all(Object.entries(files).map(([rel, text]) => writeFile(path.join(dir, rel), text)));
      const work = (async () => {
        const project = await loadProject(dir, { cache: { enabled: false } });
        return { project, ...lint(project) };
      })();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`case ${n} (seed ${SEED}) took longer than ${CASE_LIMIT_MS} ms`)), CASE_LIMIT_MS);
      });
      let result;
      try {
        result = await Promise.race([work, timeout]);
      } catch (err) {
        throw new Error(`case ${n} (seed ${SEED}) failed: ${(err as Error).stack ?? err}\nfiles:\n${JSON.stringify(files, null, 1)}`, { cause: err });
      } finally {
        clearTimeout(timer);
      }
      for (const d of result.diagnostics) {
        seenCodes.add(d.code);
        expect(d.code).toMatch(/^[EW]_[A-Z_0-9]+$/);
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.col).toBeGreaterThanOrEqual(1);
        expect(typeof d.message).toBe('string');
        expect(d.code).not.toBe('E_INTERNAL');
      }
      // The parse cache changes nothing lint reports, on its first load or from its entries.
      if (n % 4 === 0) {
        for (let pass = 0; pass < 2; pass++) {
          const cached = lint(await loadProject(dir, { cache: { dir: cacheDir } }));
          expect(cached.diagnostics, `case ${n}, ${pass ? 'warm' : 'cold'} cache`).toEqual(result.diagnostics);
        }
      }
      // A project that lints without errors has only text keys and no unquoted template.
      const bad = keysNotText(result.project);
      notText += bad.length;
      if (result.ok) expect(bad, `case ${n}: ${JSON.stringify(files, null, 1)}`).toEqual([]);
      else if (bad.length)
        expect(result.diagnostics.some((d) => d.code === 'E_KEY_NOT_STRING' || d.code === 'E_TEMPLATE_UNQUOTED' || d.code === 'E_SCHEMA')).toBe(true);
    }
    await new Promise((r) => setImmediate(r)); // emitWarning reports on the next tick
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
    expect(notText).toBeGreaterThan(50);
    expect(seenCodes.has('E_KEY_NOT_STRING')).toBe(true);
    expect(seenCodes.has('E_TEMPLATE_UNQUOTED')).toBe(true);
    // The mutations must actually reach the error paths, or this test proves nothing.
    expect(seenCodes.has('E_YAML_PARSE')).toBe(true);
    expect(seenCodes.size).toBeGreaterThan(5);
  });
});

/** Every key of every parsed file that is not a text scalar, and every `{{…}}` YAML read as a mapping. */
function keysNotText(project: Awaited<ReturnType<typeof loadProject>>): string[] {
  const bad: string[] = [];
  for (const f of project.files) {
    if (!f.doc || f.doc.errors.length || f.value === undefined) continue;
    visit(f.doc, {
      Pair(_, pair) {
        const key = pair.key;
        if (!isScalar(key) || key.value === null) bad.push(`${f.path}: key ${String(key)}`);
      },
      Map(_, map) {
        const only = map.items.length === 1 ? map.items[0] : undefined;
        if (map.flow && isPair(only) && only.value === null && !isScalar(only.key)) bad.push(`${f.path}: ${String(map)}`);
      },
    });
  }
  return bad;
}
