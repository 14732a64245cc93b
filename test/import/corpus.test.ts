// Every file of the shared corpus imports, passes the self-check, the grounding and leak checks,
// and lints with 0 errors. The 4 MB Stripe description runs once, through the CLI.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { writeProject } from '../../src/import/emit/write.js';
import { importApi } from '../../src/import/index.js';
import { lint } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';
import { CORPUS, tempDir, texts } from './helpers.js';

const STRIPE = 'openapi/stripe-spec3.oas30.yaml';
const files = existsSync(CORPUS)
  ? readdirSync(CORPUS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(CORPUS, d.name)).filter((f) => f !== 'README.md').map((f) => `${d.name}/${f}`))
      .filter((f) => f !== STRIPE)
      .sort()
  : [];
const groups = [...files.map((f) => [f]), ['postman/microsoft-graph.v21.postman_collection.json', 'postman/microsoft-graph.postman_environment.json'], ['markdown/realworld-backend-endpoints.md', 'markdown/realworld-backend-api-response-format.md']];

/** Credentials that appear in the corpus (headers, URLs, example bodies): never in any output. */
const REAL = ['65eaa9c8ef52460d22a93307fe0aee76289dc675', '9fcb1158165773dd010fca5f0cf7174316c3e37d', 'jakejake', 'your-api-key', 'admin:password', 'yourpassword'];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

// Under CI a missing corpus (../shared/corpus beside the clone) is a failure, not a skip.
describe.skipIf(!files.length && !process.env.CI)('corpus', () => {
  it.each(groups.map((g) => [g.join(' + '), g]))('%s', async (_name, inputs) => {
    const r = await importApi(inputs as string[], { cwd: CORPUS });
    expect(r.findings).toEqual([]);
    const out = Object.values(texts(r)).join('\n') + r.plan;
    for (const secret of REAL) expect(out).not.toContain(secret);
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeProject(r.files, dir);
    const errors = lint(await loadProject(dir)).diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([]);
  });

  it('imports the 4 MB Stripe description through the CLI in under 10 s', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    let err = '';
    const io = { stdout: () => {}, stderr: (t: string) => void (err += t), stdin: new PassThrough(), cwd: CORPUS, env: {}, isTTY: false };
    const started = performance.now();
    const code = await main(['import', STRIPE, '--out', path.join(dir, 'stripe'), '--plan', path.join(dir, 'PLAN.md')], io);
    const ms = performance.now() - started;
    expect(err).toMatch(/459 of 468 operations, \d+ resources, 1 actors, 9 open questions/);
    expect(err).toContain('flow import: inferred 100/459 operations'); // a progress line every 100 operations
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(await readFile(path.join(dir, 'PLAN.md'), 'utf8')).toContain('## Open questions');
  }, 30_000);
});
