// Secrets at the edges of redaction (issue 23.3, 23.4, 21.12), against a real node:http server:
// - one that pads its echo so that a secret straddles each cut (request and response excerpts
//   at 2,000 characters, the E_NOT_JSON message at 80, an assertion's actual value at 200):
//   no start of the secret may show, in a plain run, --verbose, the library's results, or
//   a Vitest JUnit report;
// - one that escapes its JSON echo as Go does (`\u003c` for `<`…), and as Python does for
//   non-ASCII: the secret is hidden in those spellings too;
// - a short login value (`carol`) that must not rewrite the URL path it names.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, text, type TestServer } from '../helpers/http-server.js';
import { ensureBuilt, parseJUnit, REPO, runVitest } from '../vitest/helpers.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { closeRunners, load, outcomes, resultOf } from './helpers.js';

// 33 characters, as in the issue; distinctive first characters, so that any start of them is a leak.
const PW = 'Qz7-straddle-0123456789-abcdefghi';
// Characters Go's encoder escapes (<, >, &), a non-ASCII one (escaped by Python's ensure_ascii).
const GO = 'Gq9<tok>&key-Ünï-xyz';
const ENV = { FLOW_SECRET_PW: PW, FLOW_SECRET_GO: GO };

/** Each cut falls 10 characters into the secret. */
const AT_2000 = 1990;
const goEscape = (s: string) => s.replace(/[<>&\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    // {"pad":"yyy…","password":"<PW>"}: the password begins at character 1990
    'POST /pad': (q, res) =>
      text(res, 200, `{"pad":"${'y'.repeat(AT_2000 - 22)}","password":"${(q.json() as { password: string }).password}"}`, {
        'content-type': 'application/json',
      }),
    // HTML whose password begins at character 70 of the body
    'POST /html': (q, res) => text(res, 200, `<html>${'z'.repeat(64)}${(q.json() as { password: string }).password}</html>`, { 'content-type': 'text/html' }),
    // an actual value whose JSON text has the password from character 181
    'POST /long': (q, res) => json(res, 200, { echo: `${'w'.repeat(180)}${(q.json() as { password: string }).password}` }),
    // Go's encoding/json: <, >, & (and here non-ASCII) as \u00XX; one letter as \u0071 too
    'POST /go': (q, res) => {
      const body = goEscape(JSON.stringify({ echo: (q.json() as { secret: string }).secret })).replace('q', '\\u0071');
      text(res, 200, body, { 'content-type': 'application/json' });
    },
    // httpbin's /basic-auth/{user}/{passwd}
    'GET /basic-auth/carol/carol': (_q, res) => json(res, 200, { authenticated: true, user: 'carol' }),
  });
});
afterAll(async () => {
  await closeRunners();
  await server.close();
});

const ROOT = 'version: 1\nname: edges\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n';
const files = () => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': `name: test\nvariables:\n  baseUrl: ${server.url}\n  password: !secret PW\n  go: !secret GO\n`,
  'actors/carol.yaml': 'name: carol\nauth: { strategy: basic, username: carol, password: carol }\n',
  'resources/edge.yaml': [
    'name: edge',
    'operations:',
    // the request body has the password from character 1990 too; 201 expected, so it fails and shows both
    `  pad: { method: POST, path: /pad, expect_status: 201, body: { pad: "${'x'.repeat(AT_2000 - 22)}", password: "{{env.password}}" } }`,
    '  html: { method: POST, path: /html, body: { password: "{{env.password}}" }, extract: { id: $.data.id } }',
    `  long: { method: POST, path: /long, body: { password: "{{env.password}}" }, assert: ["$.data.echo == 'nope'"] }`,
    '  go: { method: POST, path: /go, expect_status: 201, body: { secret: "{{env.go}}" } }',
    '  carol: { path: /basic-auth/carol/carol, actor: carol }',
    '',
  ].join('\n'),
});
const OPS = ['edge.pad', 'edge.html', 'edge.long', 'edge.go', 'edge.carol'];

/** JSON escapes undone, so that a secret is found in any spelling. */
const unescape = (s: string) => s.replace(/\\+u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

function expectNoStart(label: string, output: string): void {
  const plain = unescape(output);
  for (const secret of [PW, GO]) {
    for (let k = 3; k <= secret.length; k++) expect(plain.includes(secret.slice(0, k)), `${label} shows "${secret.slice(0, k)}"`).toBe(false);
  }
}

describe('a secret straddling a cut, or in Go-escaped JSON, shows nowhere', () => {
  it('the library results', async () => {
    const { runner } = await load(files(), { processEnv: ENV });
    const summary = await runner.runMany(OPS);
    expect(outcomes(summary)).toEqual([
      ['edge.pad', 'failed', 'E_STATUS_MISMATCH'],
      ['edge.html', 'failed', 'E_NOT_JSON'],
      ['edge.long', 'failed', 'E_ASSERT_FAILED'],
      ['edge.go', 'failed', 'E_STATUS_MISMATCH'],
      ['edge.carol', 'passed', undefined],
    ]);
    // not vacuous: the server got the secrets, and the echoes hold them where the cuts fall
    const pad = server.requests.find((r) => r.path === '/pad')!;
    expect(pad.text().indexOf(PW)).toBe(AT_2000);
    expect((server.requests.find((r) => r.path === '/go')!.json() as { secret: string }).secret).toBe(GO);

    const all = JSON.stringify(summary);
    expectNoStart('results', all);
    const padResult = resultOf(summary, 'edge.pad');
    const exchange = padResult.exchanges.at(-1)!;
    // cut after redaction: the *** stands where the password began, and the excerpt is whole up to it
    expect(exchange.request.body).toMatch(/"password":"\*\*\*/);
    expect(exchange.response!.body).toMatch(/"password":"\*\*\*"\}$/);
    expect(resultOf(summary, 'edge.html').error!.message).toMatch(/is not JSON: "<html>z+\*\*\*…"/);
    expect(resultOf(summary, 'edge.long').error!.message).toMatch(/actual "w+\*\*\*…$/);
    expect(resultOf(summary, 'edge.go').exchanges.at(-1)!.response!.body).toBe('{"echo":"***"}');
  });

  it('flow run, plain and --verbose', async () => {
    const { dir } = await load(files());
    for (const args of [[], ['--verbose']]) {
      const rec = recordedIO({ cwd: dir, env: ENV });
      expect(await main(['run', ...OPS, ...args], rec.io)).toBe(1);
      expect(rec.out()).toContain('E_NOT_JSON');
      expectNoStart(`flow run ${args.join(' ')} stdout`, rec.out());
      expectNoStart(`flow run ${args.join(' ')} stderr`, rec.err());
      // the short login value names a resource in the URL: the path is shown as it is
      if (args.length) expect(rec.out()).toContain('/basic-auth/carol/carol');
    }
  });

  it('a Vitest JUnit report', { timeout: 180_000 }, async () => {
    await ensureBuilt();
    const repo = mkdtempSync(path.join(tmpdir(), 'reqflow-cuts-'));
    try {
      writeFileSync(path.join(repo, 'package.json'), '{ "type": "module", "private": true }\n');
      writeFileSync(path.join(repo, 'vitest.config.js'), "import { flow } from 'reqflow/vitest';\nexport default { plugins: [flow()] };\n");
      mkdirSync(path.join(repo, 'node_modules'));
      symlinkSync(REPO, path.join(repo, 'node_modules/reqflow'), 'dir');
      for (const [rel, content] of Object.entries(files())) {
        mkdirSync(path.dirname(path.join(repo, 'edges', rel)), { recursive: true });
        writeFileSync(path.join(repo, 'edges', rel), content);
      }
      const junit = path.join(repo, 'junit.xml');
      const run = await runVitest(repo, ['run', '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`], ENV);
      const xml = readFileSync(junit, 'utf8');
      const failures = parseJUnit(xml)
        .flatMap((s) => s.cases)
        .filter((c) => c.failure);
      expect(failures.map((c) => c.name.split(' > ').at(-1)).sort()).toEqual(['edge.go', 'edge.html', 'edge.long', 'edge.pad']);
      expect(xml).toContain('***');
      expectNoStart('JUnit', xml);
      expectNoStart('vitest stdout', run.stdout);
      expectNoStart('vitest stderr', run.stderr);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
