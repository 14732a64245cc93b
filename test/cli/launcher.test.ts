// bin/flow.js run as a program, the way npm's `flow` link runs it: its `#!/usr/bin/env -S node
// --liftoff-only` line must start this Node (an unknown flag would make node refuse to start).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const BUILT = existsSync(path.join(REPO, 'dist/cli/main.js'));

// Under CI a missing build is a failure, not a skip: the build is part of `npm ci`.
describeWhenAvailable('bin/flow.js as a program', BUILT ? undefined : NOT_BUILT, () => {
  it('starts through its own first line and answers --version', async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        path.join(REPO, 'bin/flow.js'),
        ['--version'],
        { env: { PATH: path.dirname(process.execPath) + path.delimiter + process.env.PATH } },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 70) : 0, stdout, stderr }),
      );
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });
});
