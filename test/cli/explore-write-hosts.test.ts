// Where calibrate and explore may write (issue: explore made 66,306 requests in 60 s to
// whatever baseUrl it was given, with no check of the host). A write goes only to loopback or
// to a host the environment declares in `write_hosts`; the refusal says how to declare one.
// The "remote" host is reached through an HTTP proxy on loopback (CONNECT, as undici asks)
// that tunnels to the items API: what the API received is what the remote host would have.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { EXPLORE_PROJECT, EXPLORE_TOKEN, startExploreApi, type ExploreApi } from '../helpers/explore-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const REMOTE = 'api.example.test';
let api: ExploreApi;
let proxy: Server;
let proxyUrl: string;
const sockets = new Set<Socket>();
beforeAll(async () => {
  api = await startExploreApi({ fixed: true });
  // every tunnel leads to the items API, whatever host was asked for
  proxy = createServer().on('connect', (_req, client: Socket, head: Buffer) => {
    const upstream = connect(Number(new URL(api.url).port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy()).on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => proxy.close(resolve));
  await api.close();
  await cleanProjects();
});

async function run(command: string[], environment: string) {
  const dir = await writeProject({ ...EXPLORE_PROJECT, 'environments/local.yaml': environment });
  const io = capturingIO({ cwd: dir, env: { FLOW_SECRET_API_TOKEN: EXPLORE_TOKEN, HTTP_PROXY: proxyUrl, NO_PROXY: '' } });
  const code = await main([...command, '--var', `baseUrl=http://${REMOTE}`], io);
  return { code, out: io.out + io.err };
}

const ENV = 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n';
const writes = () => [...api.count.entries()].filter(([k]) => /^(POST|PUT|PATCH|DELETE) /.test(k)).reduce((n, [, c]) => n + c, 0);

describe('explore writes only to loopback or to write_hosts', () => {
  it('a host that is neither: no write is sent, and the message says how to declare one', async () => {
    const { code, out } = await run(['explore', '--openapi', 'openapi.yaml', '--budget', '5', '--seed', '1'], ENV);
    expect(writes()).toBe(0);
    expect(code).toBe(2);
    expect(out).toContain('E_HOST_NOT_WRITABLE');
    expect(out).toContain(`write_hosts: [${REMOTE}]`);
  }, 30_000);

  it('a host in write_hosts is written to', async () => {
    await run(['explore', '--openapi', 'openapi.yaml', '--budget', '20', '--rounds', '3', '--seed', '1'], `${ENV}write_hosts: [${REMOTE}]\n`);
    expect(api.count.get('POST /items')).toBeGreaterThan(0);
  }, 30_000);
});
