// README's "The parse cache" section, held to the code: every option it names is one `flow`
// accepts, and every variable it names does what it says.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
  expect(ParseCache.open(dir, {}, { FLOW_NO_CACHE: '1' })).toBeUndefined();
  expect(ParseCache.open(dir, {}, { FLOW_CACHE_DIR: path.join(dir, 'c') })?.dir).toBe(path.join(dir, 'c'));
});
