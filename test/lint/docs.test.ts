// docs/lint.md says what the code does: the options of `flow lint --help`, and the loader's
// behaviour the code table describes (checked against a real load, so neither side drifts).
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { usage } from '../../src/cli/commands/lint.js';
import { FAKER_NAMES } from '../../src/graph/index.js';
import { loadProject } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const docs = readFileSync(new URL('../../docs/lint.md', import.meta.url), 'utf8');
const row = (code: string) => docs.split('\n').find((l) => l.startsWith(`| \`${code}\` |`)) ?? '';

afterAll(cleanProjects);

describe('docs/lint.md', () => {
  it('shows the synopsis that --help prints', () => {
    const synopsis = usage()
      .split('\n')[0]
      .replace(/^Usage: /, '');
    expect(docs).toContain(`\n${synopsis}\n`);
  });

  it('has an options table row for every option --help lists', () => {
    const options = [...usage().matchAll(/^ {2}(?:-\w, | {4})(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(options).toContain('--fix');
    for (const o of options) expect(docs, o).toMatch(new RegExp(`^\\| \`(?:-\\w, )?${o}\\b`, 'm'));
  });

  it('E_TEMPLATE_SYNTAX: the row lists every faker name lint accepts, and no other', () => {
    const list = /whose name is not one of (.*?) \(case/.exec(row('E_TEMPLATE_SYNTAX'))?.[1] ?? '';
    expect(list.split(', ').map((n) => n.replace(/`/g, ''))).toEqual([...FAKER_NAMES]);
  });

  it('W_FILE_DISCARDED: the file is never read, so a missing one gets only that warning', async () => {
    const dir = await writeProject({ 'flow.yaml': 'version: 1\nimports:\n  - shared/x.yaml\n' });
    expect((await loadProject(dir)).diagnostics.map((d) => d.code)).toEqual(['W_FILE_DISCARDED']);
    expect(row('W_FILE_DISCARDED')).toContain('it is not read at all');
    expect(row('W_FILE_DISCARDED')).not.toMatch(/is loaded/);
  });

  it('E_YAML_PARSE: an alias bomb is reported at 1:1, as the table says', async () => {
    const bomb = `version: 1\na: &a x\nb: [${Array(101).fill('*a').join(', ')}]\n`;
    const [d] = (await loadProject(await writeProject({ 'flow.yaml': bomb }))).diagnostics;
    expect(d).toMatchObject({ code: 'E_YAML_PARSE', line: 1, col: 1 });
    expect(row('E_YAML_PARSE')).toContain('more than 100 alias expansions');
    expect(row('E_YAML_PARSE')).toMatch(/alias bomb, and a value nested deeper than 64 levels, are reported at `1:1`/);
  });
});
