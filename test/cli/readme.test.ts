// README's own commands, run as written: starting the example's demo API by hand and using it
// with `flow run` (issue 21.9). The block is read from README.md, so the two cannot drift.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(new URL('README.md', `file://${REPO}`), 'utf8');

/** The shell block after the quick start's "To use `flow run` on it" paragraph. */
function demoBlock(): string[] {
  const block = /To use `flow run` on it[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1];
  if (!block) throw new Error('README.md has no block saying how to run the demo API with flow run');
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

const children: Array<{ kill(): boolean }> = [];
afterAll(() => {
  for (const c of children) c.kill();
});

describe('README: the demo API with flow run', () => {
  it('starts example-project/demo-api/server.js as README says, and its flow run commands pass against it', async () => {
    const lines = demoBlock();
    const exported = lines.find((l) => l.startsWith('export '));
    expect(exported).toBeDefined();
    const env: Record<string, string> = Object.fromEntries(
      exported!
        .slice('export '.length)
        .split(/\s+/)
        .map((kv) => kv.split('=') as [string, string]),
    );
    expect(Object.keys(env)).toEqual(['FLOW_SECRET_ADMIN_PASSWORD', 'FLOW_SECRET_PARTNER_API_KEY', 'FLOW_SECRET_AUDITOR_PASSWORD']);

    const start = lines.find((l) => l.includes('demo-api/server.js'));
    const m = /^PORT=(\d+) node (\S+) &$/.exec(start ?? '');
    expect(m, start).not.toBeNull();
    // on a free port here (PORT=0), not README's 3000
    const server = spawn(process.execPath, [m![2]], { cwd: REPO, env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(server);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
        const found = /demo API listening on (http:\/\/\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
      server.on('exit', (code) => reject(new Error(`the demo API exited (${code}): ${out}`)));
    });

    const runs = lines.filter((l) => l.startsWith('node bin/flow.js run'));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const line of runs) {
      const args = line
        .split(/\s+/)
        .slice(2)
        .map((a) => a.replace(`http://127.0.0.1:${m![1]}`, url));
      const rec = recordedIO({ cwd: REPO, env });
      const code = await main(args, rec.io);
      expect(code, `${line}\n${rec.out()}${rec.err()}`).toBe(0);
      expect(rec.out()).toMatch(/\d+ passed, 0 failed/);
    }
  }, 60_000);
});
