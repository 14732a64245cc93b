// Every file of the shared corpus imports, passes the self-check, the grounding and leak checks,
// lints with 0 errors, and has a plan of exactly the five sections of spec 1.6. The 4 MB Stripe
// description runs once, through the CLI.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.js';
import { writeProject } from '../../src/import/emit/write.js';
import { importApi } from '../../src/import/index.js';
import { lint } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';
import { describeShared } from '../helpers/shared.js';
import { CORPUS, fileValue, tempDir, texts } from './helpers.js';

const STRIPE = 'openapi/stripe-spec3.oas30.yaml';
const files = existsSync(CORPUS)
  ? readdirSync(CORPUS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(path.join(CORPUS, d.name))
          .filter((f) => f !== 'README.md')
          .map((f) => `${d.name}/${f}`),
      )
      .filter((f) => f !== STRIPE)
      .sort()
  : [];
const groups = [
  ...files.map((f) => [f]),
  ['postman/microsoft-graph.v21.postman_collection.json', 'postman/microsoft-graph.postman_environment.json'],
  ['markdown/realworld-backend-endpoints.md', 'markdown/realworld-backend-api-response-format.md'],
];

/** Credentials that appear in the corpus (headers, URLs, example bodies): never in any output. */
const SECTIONS = ['## Actors', '## Resources and operations', '## Variable flow', '## Environment variables', '## Open questions'];
const headings = (plan: string): string[] => plan.split('\n').filter((l) => l.startsWith('## '));

const REAL = [
  '65eaa9c8ef52460d22a93307fe0aee76289dc675',
  '9fcb1158165773dd010fca5f0cf7174316c3e37d',
  'jakejake',
  'your-api-key',
  'admin:password',
  'yourpassword',
];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

// Without ../shared/corpus beside the clone: skipped with a message, a failure under CI.
describeShared('corpus', 'corpus', () => {
  it.each(groups.map((g) => [g.join(' + '), g]))('%s', async (_name, inputs) => {
    const r = await importApi(inputs, { cwd: CORPUS });
    expect(r.findings).toEqual([]);
    const out = Object.values(texts(r)).join('\n') + r.plan;
    for (const secret of REAL) expect(out).not.toContain(secret);
    expect(headings(r.plan)).toEqual(SECTIONS);
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeProject(r.files, dir);
    const errors = lint(await loadProject(dir)).diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([]);
  });

  // its time and memory are measured outside the tests (BENCHMARKS.md, "Import")
  it('imports the 4 MB Stripe description through the CLI', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    let err = '';
    const io = { stdout: () => {}, stderr: (t: string) => void (err += t), stdin: new PassThrough(), cwd: CORPUS, env: {}, isTTY: false, stdoutIsTTY: false };
    const code = await main(['import', STRIPE, '--out', path.join(dir, 'stripe'), '--plan', path.join(dir, 'PLAN.md')], io);
    expect(err).toMatch(/459 of 468 operations, \d+ resources, 1 actors, 9 open questions/);
    expect(err).toContain('flow import: inferred 100/459 operations'); // a progress line every 100 operations
    expect(code).toBe(0);
    const plan = await readFile(path.join(dir, 'PLAN.md'), 'utf8');
    expect(headings(plan)).toEqual(SECTIONS);
    // basicAuth (`<api_key>:`) and bearerAuth are alternatives: the key issued in advance is a bearer secret.
    const actor = parse(await readFile(path.join(dir, 'stripe/actors/bearer_auth.yaml'), 'utf8')) as { auth: unknown };
    expect(actor.auth).toEqual({ strategy: 'bearer', token: '{{secret.BEARER_AUTH_TOKEN}}' });
    expect(existsSync(path.join(dir, 'stripe/actors/basic_auth.yaml'))).toBe(false);
    const actors = plan.slice(plan.indexOf('## Actors'), plan.indexOf('## Resources and operations'));
    expect(actors).toContain('Operations that accept basicAuth or bearerAuth use bearerAuth (a credential issued in advance first, basic last): 468');
  }, 30_000);

  it('keeps the first scheme a request sent: traffic lists schemes sent together, not alternatives', async () => {
    // Gitea sends basic credentials with an X-Gitea-OTP one-time code, which is no API key.
    const r = await importApi(['curl/gitea-api-usage.md'], { cwd: CORPUS });
    const file = r.files.find((f) => f.kind === 'resource' && f.id === 'token');
    const ops = (file?.doc.toJS() as { operations: Record<string, { actor?: string }> }).operations;
    expect(ops.list_of_yourusername.actor).toBe('basic');
    expect(r.plan).toContain('Requests that send basic and api_key_X-Gitea-OTP use basic (the first one sent)');
    expect(fileValue(r, 'actors/basic.yaml').auth).toMatchObject({ strategy: 'basic', password: '{{secret.BASIC_PASSWORD}}' });
  });
});
