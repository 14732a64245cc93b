// Watch mode: a real `vitest --watch` on a copy of the shop project. Editing a resource file
// (read by the suite at run time, imported by nothing) must re-run that flow.yaml, and the
// flowTest file that runs the same project.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startShopServer, type ShopServer } from '../fixtures/vitest/server.js';
import { ensureBuilt, FIXTURES, REPO } from './helpers.js';
import { readyCount, WatchChild } from './watch-child.js';

let dir: string;
let server: ShopServer;
let child: WatchChild | undefined;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'reqflow-watch-'));
  // a repository of its own (ESM, as reqflow is), resolving `reqflow` to this checkout
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  cpSync(path.join(FIXTURES, 'repo/vitest.config.js'), path.join(dir, 'vitest.config.js'));
  cpSync(path.join(FIXTURES, 'repo/shop'), path.join(dir, 'shop'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules/reqflow'), 'dir');
  server = await startShopServer(`tok-${randomBytes(9).toString('hex')}`);
}, 180_000);

afterAll(async () => {
  await child?.stop();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('editing a resource file re-runs its flow.yaml suite and the flowTest file of its project', async () => {
  child = new WatchChild(dir, { FLOW_VAR_baseUrl: server.url, FLOW_SECRET_SHOP_TOKEN: server.token });
  const waitFor = child.waitFor.bind(child);

  await waitFor((t) => readyCount(t) >= 1, 60_000, 'the first run');
  const firstRun = child.output;
  expect(firstRun).toContain('E_ASSERT_FAILED');
  const calls = (route: string) => server.routes().filter((r) => r === route).length;
  const stockCalls = () => calls('GET /products/:id/stock');
  expect(stockCalls()).toBe(1);
  // order.get runs in both files: the flow.yaml suite and custom.spec.ts
  expect(calls('GET /orders/:id')).toBe(2);

  // Make product.stock pass. The watcher may still be settling: edit again if nothing happens.
  const file = path.join(dir, 'shop/resources/products.yaml');
  const edited = readFileSync(file, 'utf8').replace('$.data.available > 100', '$.data.available > 1');
  for (let attempt = 0; attempt < 4 && !child.output.includes('RERUN'); attempt++) {
    writeFileSync(file, `${edited}${'\n'.repeat(attempt)}`);
    await waitFor((t) => t.includes('RERUN'), 5000, 'a re-run').catch(() => undefined);
  }
  await waitFor((t) => t.includes('RERUN') && readyCount(t.slice(t.indexOf('RERUN'))) >= 1, 60_000, 'the re-run to finish');

  const rerun = child.output.slice(child.output.indexOf('RERUN'));
  expect(rerun).toMatch(/RERUN\s+shop\/resources\/products\.yaml/);
  expect(rerun).toContain('shop/flow.yaml');
  // the flowTest file ran again too (the reporter lists every file, so ask the server)
  const reruns = rerun.match(/RERUN/g)!.length;
  expect(calls('GET /orders/:id')).toBe(2 + 2 * reruns);
  // the suite ran again, with the edited assert
  expect(stockCalls()).toBeGreaterThanOrEqual(2);
  expect(rerun).not.toContain('E_ASSERT_FAILED');
  expect(rerun).toContain('E_STATUS_MISMATCH'); // invoice.create still fails: the whole suite ran
  await child.stop();
}, 150_000);
