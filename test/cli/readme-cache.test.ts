// README's "The parse cache" section, held to the code: every option it names is one `flow`
// accepts, and every variable it names does what it says.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ParseCache } from '../../src/project/parse-cache.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const section = /\n## The parse cache\n([\s\S]*?)\n## /.exec(README)?.[1] ?? '';

it('names only options that flow lint or flow run accept', async () => {
  expect(section).toContain('FLOW_NO_CACHE');
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-readme-cache-'));
  writeFileSync(path.join(dir, 'flow.yaml'), 'version: 1\nname: x\n');
  const help = async (command: string) => {
    const rec = recordedIO({ cwd: dir });
    await main([command, '--help'], rec.io);
    return rec.out() + rec.err();
  };
  const usage = (await help('lint')) + (await help('run'));
  // ESLint's own `--cache` is named as a comparison
  for (const option of new Set(section.match(/(?<![\w-]|ESLint's `)--[a-z][a-z-]*/g) ?? [])) {
    expect(usage, option).toMatch(new RegExp(`${option}(?![\\w-])`));
  }
});

it('FLOW_NO_CACHE=1 turns the cache off, FLOW_CACHE_DIR names its folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-readme-cache-'));
  expect(section).toContain('FLOW_CACHE_DIR');
  expect(ParseCache.open({}, { FLOW_NO_CACHE: '1' })).toBeUndefined();
  expect(ParseCache.open({}, { FLOW_CACHE_DIR: path.join(dir, 'c') })?.dir).toBe(path.join(dir, 'c'));
});

it('--no-cache writes nothing, --cache-dir names the folder (flow lint, through the option table)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-readme-cache-'));
  writeFileSync(path.join(dir, 'flow.yaml'), 'version: 1\nname: x\n');
  const cacheDir = path.join(dir, 'cache-here');
  const lint = async (...args: string[]) => {
    const rec = recordedIO({ cwd: dir, env: {} });
    return main(['lint', ...args], rec.io);
  };
  expect(await lint('--no-cache', '--cache-dir', 'cache-here')).toBe(0);
  expect(existsSync(cacheDir)).toBe(false);
  expect(await lint('--cache-dir', 'cache-here')).toBe(0);
  expect(readdirSync(cacheDir).length).toBeGreaterThan(0);
  // FLOW_NO_CACHE from the command's environment is honoured as --no-cache
  const other = path.join(dir, 'other');
  const rec = recordedIO({ cwd: dir, env: { FLOW_NO_CACHE: '1', FLOW_CACHE_DIR: other } });
  expect(await main(['lint'], rec.io)).toBe(0);
  expect(existsSync(other)).toBe(false);
});
