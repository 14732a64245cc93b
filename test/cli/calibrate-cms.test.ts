// `flow calibrate` on a headless CMS shaped like Directus (test/helpers/cms-api.ts): its own
// OpenAPI description imported, then ONE `calibrate --writes --destructive --apply` carries
// the collection's create, get, patch and delete to green: the search proves, in memory and
// in order, the header form and the actor together (a 400 as the actor means it was
// accepted), then the body field the 400 names, then the extraction path where the create's
// one object really has the id, then the next operations of the chain. Never a 4xx written
// in as an expectation; the reads stay green; a second calibrate proposes nothing.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CMS_TOKEN, startCmsApi, type CmsApi } from '../helpers/cms-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: CmsApi;
beforeAll(async () => {
  api = await startCmsApi();
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const env = { FLOW_SECRET_AUTH_KEY: CMS_TOKEN };
async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env });
  const code = await main([...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

async function allText(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
  return (await Promise.all(files.map((f) => readFile(path.join(f.parentPath, f.name), 'utf8')))).join('\n');
}

describe('flow calibrate on a CMS (Bearer where a raw key is described, a 400 naming the field, one object where an array is described)', () => {
  it('one calibrate --apply makes the chain green; run --all passes; a second calibrate proposes nothing', async () => {
    const doc = await (await fetch(`${api.url}/server/specs/oas`)).json();
    const dir = await writeProject({ 'oas.json': JSON.stringify(doc) });
    const rec = recordedIO({ cwd: dir });
    expect(await main(['import', 'oas.json', '--out', 'project'], rec.io), rec.err()).toBe(0);
    const project = path.join(dir, 'project');
    const chain = ['article.create', 'article.get', 'article.patch', 'article.delete'];

    const r = await flow(project, ['calibrate', ...chain, '--writes', '--destructive', '--apply']);
    expect(r.stderr).toBe('');
    const report = r.stdout;
    expect(report).toMatch(
      /- Why: answered 403 without an actor, and 400 as auth with Authorization: Bearer \{\{secret\.AUTH_KEY\}\} \(the login was accepted\); answered 400 naming `title`; then 200/,
    );
    expect(report).toContain('`auth.key` (sent in Authorization): `{{secret.AUTH_KEY}}` -> `Bearer {{secret.AUTH_KEY}}`');
    expect(report).toContain('add `body.title: "{{$.faker.word}}"`');
    expect(report).toContain('`id: $.data.data[*].id` -> `id: $.data.data.id`');
    expect(report).toContain('`expect_status: 200` -> `expect_status: 204`');
    // a 403 or 400 is diagnosed, never proposed as the expectation
    expect(report).not.toMatch(/-> `expect_status: 4\d\d`/);
    expect(report).toContain('## Open questions\n\nNone.');
    for (const op of chain) expect(report).toMatch(new RegExp(`^- ${op.replace('.', '\\.')}: \``, 'm'));
    expect(r.code).toBe(0);

    const run = await flow(project, ['run', '--all']);
    expect(run.stdout).toMatch(/^5 passed, 0 failed/m);
    const again = await flow(project, ['calibrate', '--writes', '--destructive', '--apply']);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    expect(again.code).toBe(0);
    for (const text of [report, run.stdout, again.stdout, await allText(project)]) expect(text).not.toContain(CMS_TOKEN);
  }, 60_000);

  it('with --openapi, the value of the field the 400 names comes from its schema in the description', async () => {
    const doc = (await (await fetch(`${api.url}/server/specs/oas`)).json()) as {
      components: { schemas: { ItemsArticles: { properties: { title: object } } } };
    };
    doc.components.schemas.ItemsArticles.properties.title = { type: 'string', example: 'Hello world' };
    const dir = await writeProject({ 'oas.json': JSON.stringify(doc) });
    expect(await main(['import', 'oas.json', '--out', 'project'], recordedIO({ cwd: dir }).io)).toBe(0);
    const project = path.join(dir, 'project');
    const r = await flow(project, ['calibrate', 'article.create', '--writes', '--openapi', path.join(dir, 'oas.json')]);
    expect(r.stdout).toContain('add `body.title: "Hello world"`');
    expect(r.stdout).toMatch(/answered 400 naming `title`; then 200/);
    const bad = await flow(project, ['calibrate', '--openapi', path.join(dir, 'missing.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--openapi: E_CONTRACT_LOAD: .*missing\.json/);
  }, 60_000);
});
