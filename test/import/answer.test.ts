// `flow import --check answer.md`: an answer in the form of spec 1.7 (the plan, then each file
// in a fenced block labelled with its path) is checked like a project, plan sections included.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO, type CapturingIO } from '../helpers/capturing-io.js';
import { readAnswer } from '../../src/import/check/answer.js';
import { importFixture, tempDir, texts } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function io(cwd: string): CapturingIO {
  return capturingIO({ cwd });
}

async function check(answer: string, inputs: string[] = []) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  await writeFile(path.join(dir, 'answer.md'), answer);
  const out = io(dir);
  const code = await main(['import', '--check', 'answer.md', ...inputs], out);
  return { code, err: out.err };
}

/** Our own import of a fixture, written out as an answer: the plan, then one fenced block per file. */
async function ownAnswer(label: (file: string) => string): Promise<string> {
  const r = await importFixture(['petstore-links.oas30.yaml']);
  const files = Object.entries(texts(r)).map(([file, text]) => `${label(file)}\n${text}\`\`\`\n`);
  return `${r.plan}\n\n${files.join('\n')}`;
}

describe('flow import --check <answer.md>', () => {
  it('passes an answer that follows the procedure, whatever way its blocks are labelled', async () => {
    for (const label of [(f: string) => `\`\`\`yaml ${f}`, (f: string) => `**${f}**\n\n\`\`\`yaml`, (f: string) => `\`\`\`yaml title="${f}"`]) {
      const r = await check(await ownAnswer(label));
      expect(r.err).toMatch(/checked the plan and \d+ files of answer\.md; self-check and grounding passed; lint 0 errors/);
      expect(r.code, r.err).toBe(0);
    }
  });

  it('reports what an answer gets wrong: a missing plan section, a plaintext password, a path in baseUrl', async () => {
    const answer = [
      '# Plan',
      '## Actors',
      'admin logs in.',
      '## Resources and operations',
      '## Environment variables',
      '## Open questions',
      '```yaml flow.yaml',
      'version: 1',
      'imports: [environments/*.yaml, actors/*.yaml]',
      '```',
      '```yaml environments/default.yaml',
      'name: default',
      'variables: { baseUrl: "https://api.test/v1" }',
      '```',
      '```yaml actors/admin.yaml',
      'name: admin',
      'auth: { strategy: basic, username: admin, password: hunter2 }',
      '```',
      '',
    ].join('\n');
    const r = await check(answer);
    expect(r.code).toBe(1);
    expect(r.err).toContain('check: plan: E_CHECK_PLAN the plan has no section "Variable flow" (docs/format.md#the-plan)');
    expect(r.err).toMatch(/check: actors\/admin\.yaml .*E_CHECK_PLAINTEXT_SECRET/);
    expect(r.err).toMatch(/check: environments\/default\.yaml .*E_CHECK_BASEURL_PATH/);
    expect(r.err).not.toContain('hunter2');
  });

  it('an answer without a labelled file, or with a file outside the project, is a usage error', async () => {
    const none = await check('## Actors\n\n```yaml\nname: x\n```\n');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/E_IMPORT_ANSWER answer\.md: no file in the answer/);
    const outside = await check('```yaml ../evil.yaml\nname: x\n```\n');
    expect(outside.code).toBe(2);
    expect(outside.err).toMatch(/E_IMPORT_ANSWER answer\.md:1: the file \.\.\/evil\.yaml would lie outside the project/);
  });

  it('a sentence that mentions a file is not a label; headings after the first file are not the plan', () => {
    const a = readAnswer('## Actors\nThe file resources/x.yaml comes below.\n```yaml\nname: y\n```\n```yaml flow.yaml\nversion: 1\n```\n## Later\n', 'a.md');
    expect(a.files.map((f) => f.path)).toEqual(['flow.yaml']);
    expect(a.headings.map((h) => h.text)).toEqual(['Actors']);
  });
});
