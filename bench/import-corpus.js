// `npm run import:corpus`: import every file of the shared corpus (and the inputs that belong
// together) with the real CLI in a child process, and print one table per input folder:
// operations in the input, operations emitted, open questions, inferred dependencies, time,
// peak memory, and whether the self-check, the grounding check and lint passed.
// Needs the build (`npm run build`); the corpus is ../shared/corpus, or $FLOW_CORPUS.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FLOW, ROOT, measureNode, table } from './lib.js';

const CORPUS = process.env.FLOW_CORPUS ?? path.resolve(ROOT, '..', 'shared', 'corpus');

/** Inputs that describe one API together: imported as one project too. */
const COMBINED = [
  ['postman/microsoft-graph.v21.postman_collection.json', 'postman/microsoft-graph.postman_environment.json'],
  ['postman/xero-oauth2.v21.postman_collection.json', 'postman/xero-oauth2.postman_environment.json'],
  ['markdown/realworld-backend-endpoints.md', 'markdown/realworld-backend-api-response-format.md'],
];

const SUMMARY =
  /(\d+) of (\d+) operations, (\d+) resources, (\d+) actors, (\d+) open questions, (\d+) dependencies \((\d+) depends_on\); self-check and grounding (passed|FAILED[^;]*); lint (\d+) errors/;

async function importOne(inputs) {
  const out = await mkdtemp(path.join(tmpdir(), 'flow-import-'));
  try {
    const r = await measureNode([FLOW, 'import', ...inputs, '--out', path.join(out, 'project'), '--plan', path.join(out, 'PLAN.md')], { cwd: CORPUS });
    const m = SUMMARY.exec(r.stderr);
    if (!m)
      return {
        ok: false,
        row: [
          inputs.join(' + '),
          '?',
          '?',
          '?',
          '?',
          '?',
          `${Math.round(r.ms)} ms`,
          '?',
          `exit ${r.code}: ${r.stderr.split('\n').find((l) => l.trim()) ?? ''}`,
        ],
      };
    const [, emitted, stated, , , questions, deps, explicit, check, lintErrors] = m;
    const coverage = /coverage: (.*)/.exec(r.stderr)?.[1] ?? '?';
    const ok = r.code === 0 && check === 'passed' && lintErrors === '0';
    return {
      ok,
      row: [
        inputs.join(' + '),
        stated,
        emitted,
        questions,
        coverage,
        `${deps} (${explicit} explicit)`,
        `${Math.round(r.ms)} ms`,
        `${Math.round(r.rssMB)} MB`,
        ok ? 'ok' : `FAILED (check ${check}, lint ${lintErrors} errors)`,
      ],
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
    console.error('import:corpus: build first (npm run build)');
    process.exitCode = 2;
    return;
  }
  const folders = (await readdir(CORPUS, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  let failed = 0;
  const headers = ['input', 'ops in input', 'ops emitted', 'open questions', 'coverage', 'inferred dependencies', 'time', 'peak RSS', 'checks + lint'];
  for (const folder of folders) {
    const files = (await readdir(path.join(CORPUS, folder))).filter((f) => f !== 'README.md').sort();
    const rows = [];
    for (const f of files) {
      const r = await importOne([`${folder}/${f}`]);
      if (!r.ok) failed++;
      rows.push(r.row);
    }
    for (const group of COMBINED.filter((g) => g[0].startsWith(`${folder}/`))) {
      const r = await importOne(group);
      if (!r.ok) failed++;
      rows.push(r.row);
    }
    console.log(`\n## ${folder}\n\n${table(headers, rows)}`);
  }
  console.log(failed ? `\n${failed} imports FAILED` : '\nevery import passed the self-check, the grounding check and lint (0 errors)');
  process.exitCode = failed ? 1 : 0;
}

await main();
