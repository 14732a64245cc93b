// The lint runner: loader diagnostics kept once, positions, severities, order, de-duplication,
// --strict, the lazy graph, and a rule that throws.
import { afterAll, describe, expect, it } from 'vitest';
import { lint, type Rule } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { found, lintFiles, ROOT } from './helpers.js';

afterAll(cleanProjects);

const rule = (id: string, check: Rule['check']): Rule => ({ id, codes: [], check });

describe('lint()', () => {
  it('includes the loader diagnostics, each once, next to the rules findings', async () => {
    const { dir, result } = await lintFiles({ 'flow.yaml': 'version: 7\ncolour: red\n' });
    expect(found(dir, result)).toEqual(['flow.yaml:1:10 E_SCHEMA_VERSION', 'flow.yaml:2:1 W_UNKNOWN_KEY']);
    expect(result).toMatchObject({ errors: 1, warnings: 1, ok: false });
  });

  it('reports E_YAML_PARSE from the loader and runs no schema rule on the broken file', async () => {
    const { dir, result } = await lintFiles({ 'resources/r.yaml': 'operations:\n  a: {path: /x\n  b: [\n' });
    expect(found(dir, result).every((s) => s.includes('E_YAML_PARSE'))).toBe(true);
    expect(result.errors).toBeGreaterThan(0);
  });

  it('still schema-checks a file with exactly 100 aliases (the loader reads it, so must lint)', async () => {
    const aliases = Array(100).fill('*a').join(', ');
    const { dir, result } = await lintFiles({ 'flow.yaml': `version: 1\nx-anchor: &a x\nb: [${aliases}]\n` });
    expect(found(dir, result)).toEqual(['flow.yaml:2:1 W_UNKNOWN_KEY', 'flow.yaml:3:1 W_UNKNOWN_KEY']);
  });

  it('sorts by file, line and col; equal positions keep rule order', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/b.yaml': 'name: b\n', 'resources/a.yaml': 'name: a\n' });
    const project = await loadProject(dir);
    const at = (file: string, yamlPath: Array<string | number>, code: string) => ({ code, message: code, file: `${dir}/${file}`, yamlPath });
    const result = lint(project, {
      rules: [
        rule('one', () => [at('resources/b.yaml', ['name'], 'W_ONE'), at('flow.yaml', ['imports', 1], 'W_ONE'), at('resources/a.yaml', ['name'], 'W_ONE')]),
        rule('two', () => [at('flow.yaml', ['imports', 1], 'W_TWO'), at('flow.yaml', ['version'], 'W_TWO')]),
      ],
    });
    expect(found(dir, result)).toEqual([
      'flow.yaml:1:10 W_TWO',
      'flow.yaml:4:5 W_ONE',
      'flow.yaml:4:5 W_TWO',
      'resources/a.yaml:1:7 W_ONE',
      'resources/b.yaml:1:7 W_ONE',
    ]);
  });

  it('points at the key with atKey, and de-duplicates identical findings', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT });
    const f = { code: 'W_X', message: 'x', file: `${dir}/flow.yaml`, yamlPath: ['imports'] };
    const result = lint(await loadProject(dir), { rules: [rule('a', () => [f, { ...f, atKey: true }]), rule('b', () => [f])] });
    expect(found(dir, result)).toEqual(['flow.yaml:2:1 W_X', 'flow.yaml:3:3 W_X']);
  });

  it('gives E_ codes error and W_ codes warning, unless a finding says otherwise', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT });
    const file = `${dir}/flow.yaml`;
    const result = lint(await loadProject(dir), {
      rules: [
        rule('a', () => [
          { code: 'E_A', message: 'a', file, yamlPath: [] },
          { code: 'W_B', message: 'b', file, yamlPath: [] },
          { code: 'E_C', message: 'c', file, yamlPath: [], severity: 'warning' },
        ]),
      ],
    });
    expect(result.diagnostics.map((d) => `${d.code}:${d.severity}`)).toEqual(['E_A:error', 'W_B:warning', 'E_C:warning']);
    expect(result).toMatchObject({ errors: 1, warnings: 2 });
  });

  it('passes warnings unless strict', async () => {
    const dir = await writeProject({ 'flow.yaml': `${ROOT}colour: red\n` });
    const project = await loadProject(dir);
    expect(lint(project)).toMatchObject({ errors: 0, warnings: 1, ok: true });
    expect(lint(project, { strict: true })).toMatchObject({ errors: 0, warnings: 1, ok: false });
    const clean = await loadProject(await writeProject({ 'flow.yaml': ROOT }));
    expect(lint(clean, { strict: true })).toMatchObject({ diagnostics: [], ok: true });
  });

  it('turns a rule that throws into E_INTERNAL naming it, keeping every other finding', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT });
    const file = `${dir}/flow.yaml`;
    const result = lint(await loadProject(dir), {
      rules: [
        rule('explodes', function* () {
          yield { code: 'W_BEFORE', message: 'kept', file, yamlPath: ['version'] };
          throw new TypeError('cannot read x of undefined');
        }),
        rule('fine', () => [{ code: 'W_AFTER', message: 'kept', file, yamlPath: ['imports'] }]),
      ],
    });
    expect(found(dir, result)).toEqual(['flow.yaml:1:1 E_INTERNAL', 'flow.yaml:1:10 W_BEFORE', 'flow.yaml:3:3 W_AFTER']);
    expect(result.diagnostics[0].message).toBe('lint rule "explodes" failed: cannot read x of undefined');
    expect(result.ok).toBe(false);
  });

  it('builds the graph once, on first use, for every rule', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/r.yaml': 'operations:\n  a: {path: /a}\n' });
    const seen: unknown[] = [];
    lint(await loadProject(dir), {
      rules: [rule('a', (ctx) => (seen.push(ctx.graph, ctx.graph), [])), rule('b', (ctx) => (seen.push(ctx.graph), []))],
    });
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]).toBeTruthy();
  });
});
