import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

afterAll(cleanProjects);

function capture(cwd: string) {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    stdin: process.stdin,
    cwd,
    env: {},
    isTTY: false,
    stdoutIsTTY: false,
  };
  return { io, out };
}

describe('flow lint --fix', () => {
  it('applies the safe fixes in place, keeps comments, never prints the credential, then lints clean', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nimports: [environments/*.yaml, resources/*.yaml]\n',
      'environments/local.yaml': '# local stack\nname: local\nvariables:\n  baseUrl: http://localhost:8080/api/v1\n  password: plain-Pa55word-xyz\n',
      'resources/orders.yaml':
        '# orders\nname: order\noperations:\n  create: { method: POST, path: /orders, body: { pw: "{{env.password}}" }, extract: { id: $.data.id } }\n  get:\n    path: /orders/{{order.id}}\n    depends_on: order.create # keep me\n',
    });
    const before = capture(dir);
    expect(await main(['lint', '--strict'], before.io)).toBe(1);
    expect(before.out.stdout).toMatch(/W_NOT_SEQUENCE/);
    expect(before.out.stdout).toMatch(/W_BASEURL_PATH/);
    expect(before.out.stdout).toMatch(/W_PLAINTEXT_SECRET/);

    const { io, out } = capture(dir);
    const code = await main(['lint', '--fix', '--strict'], io);
    expect(out.stderr).toMatch(/FIX_SEQUENCE/);
    expect(out.stderr).toMatch(/FIX_BASEURL_PATH/);
    expect(out.stderr).toMatch(/FIX_SECRET.*flow secret set/);
    expect(out.stdout + out.stderr).not.toContain('plain-Pa55word-xyz');
    expect(code).toBe(0);

    const env = await readFile(path.join(dir, 'environments/local.yaml'), 'utf8');
    const orders = await readFile(path.join(dir, 'resources/orders.yaml'), 'utf8');
    expect(env).toContain('# local stack');
    expect(env).toMatch(/baseUrl: http:\/\/localhost:8080\n/);
    expect(env).toMatch(/password: !secret \w+/);
    expect(env).not.toContain('plain-Pa55word-xyz');
    expect(orders).toContain('# orders');
    expect(orders).toContain('# keep me');
    expect(orders).toMatch(/path: \/api\/v1\/orders\b/);
    expect(orders).toMatch(/path: \/api\/v1\/orders\/\{\{order\.id\}\}/);
    expect(orders).toMatch(/depends_on: \[\s*order\.create\s*\]|depends_on:\n\s+- order\.create/);
  });
});
