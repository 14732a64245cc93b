// flow explore's pace (issue 33): requests per second, and findings per minute with the time to
// each finding, against the in-repo items API of the tests (test/helpers/explore-api.ts: five
// planted bugs, six findings, or the same API fixed). Several seeds, one budget each.
//   npx tsx bench/explore.mts [budget seconds, default 20] [seeds, default 1,2,3]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadContract } from '../src/contract/index.js';
import { explore } from '../src/explore/index.js';
import { openProject } from '../src/open/index.js';
import { EXPLORE_PROJECT, EXPLORE_TOKEN, startExploreApi } from '../test/helpers/explore-api.js';

const budget = Number(process.argv[2] ?? 20);
const seeds = (process.argv[3] ?? '1,2,3').split(',').map(Number);
const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-bench-explore-'));
for (const [rel, text] of Object.entries(EXPLORE_PROJECT)) {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}
const { project, graph } = await openProject(dir);
const contract = await loadContract(path.join(dir, 'openapi.yaml'));
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (${budget} s a run)`,
);
console.log('| API | seed | requests/s | sequences/s | findings | findings/min | seconds to each finding |');
console.log('|---|---|---|---|---|---|---|');
for (const fixed of [false, true]) {
  for (const seed of seeds) {
    const api = await startExploreApi({ fixed });
    const started = Date.now();
    const at: number[] = [];
    const r = await explore(project, {
      contract,
      graph: graph!,
      budgetMs: budget * 1000,
      seed,
      destructive: false,
      vars: { baseUrl: api.url },
      processEnv: { FLOW_SECRET_API_TOKEN: EXPLORE_TOKEN },
      onFinding: () => at.push((Date.now() - started) / 1000),
    });
    await api.close();
    const s = r.ms / 1000;
    const perMinute = at.length ? (at.length / (at.at(-1)! / 60)).toFixed(0) : '0';
    console.log(
      `| ${fixed ? 'fixed' : 'buggy'} | ${seed} | ${(r.requests / s).toFixed(0)} | ${(r.sequences / s).toFixed(0)} | ${r.findings.length} | ${perMinute} | ${at.map((t) => t.toFixed(1)).join(', ')} |`,
    );
  }
}
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
rmSync(dir, { recursive: true, force: true });
