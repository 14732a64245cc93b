// The brake (issue: explore made 66,306 requests in 60 s, no rate cap): `--rate <n>` spaces a
// run's requests, as the server sees them; a 429 or 503 with Retry-After is waited for always
// (no `retry` needed) and the summary counts those answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let api: TestServer;
const seen: number[] = [];
const limitedAt: number[] = [];
beforeAll(async () => {
  api = await startServer({
    '/limited': (_q, res) => {
      limitedAt.push(performance.now());
      if (limitedAt.length === 1) return json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
      json(res, 200, { ok: true });
    },
    '*': (_q, res) => {
      seen.push(performance.now());
      json(res, 200, { ok: true });
    },
  });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const ops = Array.from({ length: 10 }, (_, i) => `  get${i}: { path: /items/${i} }`).join('\n');
const project = () =>
  writeProject({
    'flow.yaml': 'version: 1\nname: rate\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
    'environments/test.yaml': `name: test\nvariables:\n  baseUrl: "${api.url}"\n`,
    'resources/items.yaml': `name: item\noperations:\n${ops}\n  limited: { path: /limited }\n`,
  });

async function flow(args: string[]) {
  const io = capturingIO({ cwd: await project() });
  const code = await main(['run', ...args], io);
  return { code, out: io.out + io.err };
}

describe('--rate and Retry-After', () => {
  it('--rate 5 spaces 10 requests by at least 200 ms each, as the server receives them', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `item.get${i}`);
    const { code, out } = await flow([...ids, '--rate', '5']);
    expect(code, out).toBe(0);
    expect(seen).toHaveLength(10);
    // the brake spaces them as they leave, 200 ms apart; on their way a loaded machine (npm test
    // runs files in parallel) can delay one by up to ~200 ms (the first also opens the
    // connection), and the next then arrives sooner. So no gap is judged alone: any six arrivals
    // in a row span at least 0.75 s (1 s at the rate), and all ten at least 1.6 s (1.8 s at the
    // rate; 1.5 s at 6 a second); unbraked, they come a few ms apart
    for (let i = 0; i + 5 < seen.length; i++) expect(seen[i + 5] - seen[i]).toBeGreaterThanOrEqual(750);
    expect(seen[9] - seen[0]).toBeGreaterThanOrEqual(1600);
  });

  it('a 429 with Retry-After: 1 is waited for and sent again, without any retry written, and the summary counts it', async () => {
    const { code, out } = await flow(['item.limited']);
    expect(code, out).toBe(0);
    expect(limitedAt).toHaveLength(2);
    expect(limitedAt[1] - limitedAt[0]).toBeGreaterThanOrEqual(950);
    expect(out).toContain('1 answer(s) were 429 or 503 with Retry-After: each was waited for (at most 60 s)');
  });

  it('--rate that is not a number above 0 is a usage error', async () => {
    const { code, out } = await flow(['item.get0', '--rate', '0']);
    expect(code).toBe(2);
    expect(out).toContain('--rate is a number of requests a second above 0; got "0"');
  });
});
