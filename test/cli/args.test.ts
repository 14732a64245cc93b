// Every command answers a mistyped option with the option it probably meant.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

describe('a mistyped option', () => {
  it.each([
    [['lint', '--frmat', 'json'], '--format'],
    [['run', 'a.b', '--verbos'], '--verbose'],
    [['graph', '--ordr'], '--order'],
    [['import', 'x.yaml', '--ot', 'dir'], '--out'],
    [['secret', 'list', '--projct', '.'], '--project'],
  ])('%j: exit 2, "did you mean %s?"', async (argv, meant) => {
    const rec = recordedIO({ cwd: process.cwd(), env: {} });
    const code = await main(argv, rec.io);
    expect(code).toBe(2);
    expect(rec.err()).toContain(`Unknown option '${argv.find((a) => a.startsWith('--') && a !== meant)}' (did you mean ${meant}?)`);
  });
});
