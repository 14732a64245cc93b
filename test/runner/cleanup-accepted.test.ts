// A removal answered 202 Accepted: the server took it and may still be at it in the background
// (a flag server records an archived flag's lifecycle a second later, and its process exits when
// the flag was deleted meanwhile). The clean-up sends the next removal of that instance, the
// archive's delete, only ACCEPTED_PAUSE_MS after that answer; after a 200 nothing waits. This
// server refuses an archive's delete that comes within a second of the archiving.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/http-server.js';
import { ACCEPTED_PAUSE_MS } from '../../src/runner/accepted.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

let api: TestServer;
let archivedAt = new Map<string, number>();
const gaps: number[] = [];

function startFlags(archiveStatus: number): Promise<TestServer> {
  archivedAt = new Map();
  gaps.length = 0;
  let next = 0;
  const send = (res: import('node:http').ServerResponse, status: number, body?: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
  return startServer({
    'POST /flags': (_req, res) => send(res, 201, { name: `flag-${++next}` }),
    '*': (req, res) => {
      const archive = /^\/flags\/([\w-]+)$/.exec(req.path);
      if (archive && req.method === 'DELETE') {
        archivedAt.set(archive[1], Date.now());
        return send(res, archiveStatus);
      }
      const remove = /^\/archive\/([\w-]+)$/.exec(req.path);
      if (remove && req.method === 'DELETE') {
        const gap = Date.now() - (archivedAt.get(remove[1]) ?? 0);
        gaps.push(gap);
        return gap < 1000 ? send(res, 500, { error: 'the flag is still being archived' }) : send(res, 200);
      }
      send(res, 404, {});
    },
  });
}

const files = () => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url }),
  'resources/flag.yaml': [
    'name: flag',
    'operations:',
    '  create: { method: POST, path: /flags, extract: { name: $.data.name } }',
    '  delete: { method: DELETE, path: "/flags/{{flag.name}}" }',
  ].join('\n'),
  'resources/archive.yaml': ['name: archive', 'operations:', '  delete: { method: DELETE, path: "/archive/{{flag.name}}" }'].join('\n'),
});

afterAll(async () => {
  await closeRunners();
  await api?.close();
});

describe('the clean-up after a removal answered 202 Accepted', () => {
  beforeEach(async () => {
    await api?.close();
  });

  it("waits before the instance's next removal, and it is deleted", async () => {
    api = await startFlags(202);
    const { runner } = await load(files());
    await runner.run('flag.create');
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted).toEqual([
      expect.objectContaining({ resource: 'flag', via: 'flag.delete', status: 202, then: [expect.objectContaining({ via: 'archive.delete', status: 200 })] }),
    ]);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toBeGreaterThanOrEqual(ACCEPTED_PAUSE_MS - 50);
  });

  it('waits after a 202 the run itself got (flow run flag.delete), counted from that answer', async () => {
    api = await startFlags(202);
    const { runner } = await load(files());
    await runner.run('flag.delete');
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted).toEqual([expect.objectContaining({ resource: 'flag', via: 'archive.delete', status: 200 })]);
    expect(gaps[0]).toBeGreaterThanOrEqual(ACCEPTED_PAUSE_MS - 50);
  });

  it('does not wait after a 200 (the server is done)', async () => {
    api = await startFlags(200);
    const { runner } = await load(files());
    await runner.run('flag.create');
    const report = await runner.cleanUp();
    // this server refuses the quick second removal: the clean-up did not wait, and says so
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toBeLessThan(1000);
    expect(report.left).toEqual([expect.objectContaining({ resource: 'flag', via: 'archive.delete', status: 500 })]);
  });
});
