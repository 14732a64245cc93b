// `vitest run --reporter=html` (the report `vitest --ui` shows too, from @vitest/ui) in a real
// child process on the report fixture: the report holds one test per operation, its state, and
// the failure text of each failed operation, redacted.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'flatted';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startShopServer } from '../fixtures/vitest/server.js';
import { ensureBuilt, REPO, runVitest } from './helpers.js';

const ROOT = path.join(REPO, 'test/fixtures/report');
const out = mkdtempSync(path.join(tmpdir(), 'reqflow-html-'));
// Vitest 5's html reporter ignores --outputFile and writes into <root>/.vitest/ (its outputDir option's default)
const VITEST5_OUT = path.join(ROOT, '.vitest');

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(VITEST5_OUT, { recursive: true, force: true });
});

test('the html report holds one test per operation, with its state and its failure', async () => {
  rmSync(VITEST5_OUT, { recursive: true, force: true });
  const token = `tok-${randomBytes(9).toString('hex')}`;
  const server = await startShopServer(token);
  let run;
  try {
    run = await runVitest(ROOT, ['run', 'shop/flow.yaml', '--reporter=html', `--outputFile.html=${path.join(out, 'index.html')}`], {
      FLOW_VAR_baseUrl: server.url,
      FLOW_SECRET_SHOP_TOKEN: token,
    });
  } finally {
    await server.close();
  }
  expect(run.code, run.stderr).toBe(1);
  // index.html is the UI; what it shows is in html.meta.json.gz (flatted JSON, as @vitest/ui
  // writes it): beside it in --outputFile's folder with Vitest 4, under <root>/.vitest/ui/ with Vitest 5
  const dir = [out, VITEST5_OUT].find((d) => existsSync(path.join(d, 'index.html')));
  expect(dir, 'no index.html from the html reporter').toBeDefined();
  const metaFile = [path.join(dir!, 'html.meta.json.gz'), path.join(dir!, 'ui/html.meta.json.gz')].find((f) => existsSync(f))!;
  const raw = gunzipSync(readFileSync(metaFile)).toString('utf8');
  const meta = parse(raw) as { files: Task[] };
  const file = meta.files.find((f) => f.name === 'shop/flow.yaml')!;
  const tests = leaves(file);
  expect(tests.map((t) => [t.path, t.result?.state])).toEqual([
    ['product > product.create', 'pass'],
    ['product > product.publish', 'pass'],
    ['order > order.create', 'pass'],
    ['invoice > invoice.create', 'fail'],
    ['invoice > invoice.send', 'skip'],
    ['order > order.get', 'pass'],
    ['product > product.stock', 'fail'],
  ]);
  const failure = tests.find((t) => t.name === 'invoice.create')!.result!.errors![0];
  expect(failure.name).toBe('FlowError');
  expect(failure.message).toMatch(/^E_STATUS_MISMATCH: expected 201, got 400: .*\n {2}at shop\/resources\/invoices\.yaml:11:5 \(invoice\.create\)\n/);
  expect(failure.message).toContain('Authorization: Bearer ***');
  expect(failure.message).toContain('"signature":"***"');
  const skip = tests.find((t) => t.name === 'invoice.send')!;
  expect(skip.result?.note).toBe('prerequisite invoice.create failed');
  // what a hook printed is the test's console output
  expect(tests.find((t) => t.name === 'product.publish')!.logs?.map((l) => l.content.trim())).toEqual(['pre_request hook: publishing with Bearer ***']);
  expect(raw.includes(token)).toBe(false);
}, 120_000);

interface Task {
  name: string;
  type: 'suite' | 'test' | 'file';
  tasks?: Task[];
  logs?: Array<{ content: string }>;
  result?: { state?: string; note?: string; errors?: Array<{ name: string; message: string }> };
}

/** The tests of a file, each with its `describe > test` path. */
function leaves(task: Task, prefix = ''): Array<Task & { path: string }> {
  return (task.tasks ?? []).flatMap((t) => {
    const p = prefix ? `${prefix} > ${t.name}` : t.name;
    return t.type === 'suite' ? leaves(t, p) : [{ ...t, path: p }];
  });
}
