// Documentation pages and curl logs as people write them, coverage counted apart from the
// emitter, and portable evidence. Each input is a small file written for the test.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isPlaceholder } from '../../src/import/check/leaks.js';
import { importApi } from '../../src/import/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { operation, tempDir, texts } from './helpers.js';

afterEach(cleanProjects);

const PAGE = [
  '---',
  'title: "Apps"',
  'weight: 20',
  '---',
  '{{< note >}}You need an [account](/signup) first.{{< /note >}}',
  '',
  'Create one with [POST /api/v1/apps](/reference#create), list them with [GET /api/v1/apps](/reference#list).',
  '',
  '| field | meaning |',
  '|---|---|',
  '| name | the app name |',
  '',
  '```bash',
  'curl -X POST https://apps.test/api/v1/apps \\',
  '\t-H "Authorization: Bearer <access_token>" \\',
  '    --json \'{"name": "demo", "client_id": "your_client_id_here"}\'',
  '```',
  '',
  '{{< tabs >}}',
  '```shell',
  '$ curl -u "admin:$ADMIN_PASSWORD" https://apps.test/api/v1/apps/42/logo -F "caption=Our logo" -F "kind=png"',
  '```',
  '{{< /tabs >}}',
  '',
  'Search, in an indented block:',
  '',
  '    curl -G https://apps.test/api/v1/apps/search --data-urlencode "q=two words" -H "X-Api-Key: $API_KEY"',
  '',
  'Import a manifest:',
  '',
  '```',
  'curl -X PUT https://apps.test/api/v1/apps/42/manifest -d @manifest.json',
  '```',
  '',
].join('\n');

describe('documentation pages and curl logs', () => {
  it('reads every curl of fenced and indented blocks, whatever surrounds them; placeholders become secrets or variables', async () => {
    const dir = await writeProject({ 'apps.md': PAGE });
    const r = await importApi(['apps.md'], { cwd: dir });
    expect(r.findings).toEqual([]);
    const create = operation(r, 'app.create');
    expect(create.body).toEqual({ name: 'demo-{{$.uuid}}', client_id: '{{env.client_id}}' });
    const logo = operation(r, 'app.logo');
    expect(logo.path).toBe('/api/v1/apps/42/logo'); // a value the page shows, named as an app's
    expect(logo.body_form).toEqual({ caption: 'Our logo', kind: 'png' });
    const search = operation(r, 'app.search');
    expect(search.query_params).toEqual({ q: 'two words' });
    const all = Object.values(texts(r)).join('\n') + r.plan;
    for (const literal of ['<access_token>', 'your_client_id_here', '$ADMIN_PASSWORD', '$API_KEY']) expect(all).not.toContain(literal);
    const actors = r.files.filter((f) => f.kind === 'actor').map((f) => JSON.stringify(f.doc.toJS()));
    expect(actors.join('\n')).toMatch(/\{\{secret\.ACCESS_TOKEN\}\}/);
    // -d @file: the body is not in the input: an open question, counted
    expect(r.draft.questions.map((q) => q.text)).toEqual(expect.arrayContaining([expect.stringContaining('sends the file manifest.json as its body')]));
    expect(r.plan).toContain('Coverage: 4 requests found in the input, 3 emitted, 1 in open questions.');
    expect(r.plan).toMatch(/Requests not emitted:\n\n- `apps\.md` #4 PUT .*manifest.*\(open question \d\)/);
  });

  it('a curl log takes no title from a shell comment, and a literal id names an item', async () => {
    const dir = await writeProject({
      'session.sh': '# as root, after the reset\ncurl -s https://notes.test/notes/42\ncurl -s -X DELETE https://notes.test/notes/42\n',
    });
    const r = await importApi(['session.sh'], { cwd: dir });
    expect(r.draft.projectName).not.toContain('root');
    expect(Object.keys((r.files.find((f) => f.kind === 'resource')!.doc.toJS() as { operations: object }).operations)).toEqual(['get', 'delete']);
  });

  it("the self-check tells the input's own placeholders from credentials: {{password}} named in the plan is no leak", async () => {
    const dir = await writeProject({
      'api.md': [
        '# Tokens',
        '',
        '```',
        'curl -X POST https://api.example.test/v1/login -H "Content-Type: application/json" -d \'{"username": "{{user}}", "password": "{{password}}"}\'',
        'curl -X POST https://api.example.test/v1/token -d "client_id={{client_id}}&client_secret={{client_secret}}&grant_type=client_credentials"',
        'curl https://api.example.test/v1/me -H "Cookie: session=s3ss-9f2c41d0"',
        '```',
        '',
      ].join('\n'),
    });
    const r = await importApi(['api.md'], { cwd: dir });
    expect(r.findings.map((f) => `${f.code} ${f.message}`)).toEqual([]);
    expect(r.plan).toContain('{{password}}');
    // a real credential of the same input is still one: it is nowhere in the output
    expect(Object.values(texts(r)).join('\n') + r.plan).not.toContain('s3ss-9f2c41d0');
  });

  it('isPlaceholder: the forms a page writes for a value to fill in, and only those', () => {
    for (const p of ['{{client_secret}}', '$TOKEN', '${API_KEY}', '<access_token>', 'your_api_key_here', 'Bearer {{token}}', '{{user}}:{{password}}'])
      expect(isPlaceholder(p), p).toBe(true);
    for (const c of ['s3ss-9f2c41d0', 'Bearer abc123def', 'password', 'x{{a}}y']) expect(isPlaceholder(c), c).toBe(false);
  });

  it('a silent zero fails the self-check and the exit code', async () => {
    // The command's quote never closes: the reader cannot split it, the independent count sees it.
    const dir = await writeProject({ 'broken.md': "# Notes\n\n```\ncurl \"https://notes.test/api/notes -H 'Accept: application/json'\n```\n" });
    const r = await importApi(['broken.md'], { cwd: dir, from: 'curl' });
    expect(r.findings.map((f) => `${f.code} ${f.message}`)).toEqual([expect.stringMatching(/^E_CHECK_COVERAGE broken\.md holds 1 request .* found none/)]);
    const out = await tempDir();
    const err: string[] = [];
    const code = await main(['import', 'broken.md', '--from', 'curl', '--out', path.join(out.dir, 'p')], {
      cwd: dir,
      stdout: () => {},
      stderr: (s: string) => void err.push(s),
      isTTY: false,
      stdoutIsTTY: false,
      env: {},
      stdin: process.stdin,
    });
    await out.cleanup();
    expect(code).toBe(1);
    expect(err.join('')).toContain('flow import: coverage: 0 requests found in the input, 0 emitted, 0 in open questions');
  });

  it('evidence names an input outside the working directory by its base name, never an absolute path', async () => {
    const dir = await writeProject({ 'api/notes.sh': 'curl https://notes.test/notes\n' });
    const elsewhere = await writeProject({});
    const r = await importApi([path.join(dir, 'api/notes.sh')], { cwd: elsewhere });
    const all = Object.values(texts(r)).join('\n') + r.plan;
    expect(all).toContain('notes.sh line 1');
    expect(all).not.toContain(dir);
  });
});
