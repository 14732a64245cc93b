// Hostile inputs end fast with a coded error, whatever the reader: a document or a body nested
// past MAX_DOCUMENT_DEPTH (100 levels, JSON held to the bound js-yaml puts on YAML), a chain of
// references, an input or a `$ref` target that is a FIFO or a device; and an import is linear
// in its requests. Before, each ran for minutes, filled gigabytes, overflowed the stack (exit
// 70) or hung, except the deep bodies, which were read whole and then cut without a word at 12
// levels in the emitted body.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { importApi } from '../../src/import/index.js';
import { capturingIO } from '../helpers/capturing-io.js';

const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** `flow import <file> --out …` through the CLI entry: exit code, stderr and the time it took. */
async function flowImport(name: string, text?: string) {
  if (text !== undefined) writeFileSync(path.join(dir, name), text);
  const io = capturingIO({ cwd: dir });
  const t0 = performance.now();
  const code = await main(['import', name, '--out', path.join(dir, `out-${name}`)], io);
  return { code, out: io.out, err: io.err, ms: performance.now() - t0 };
}

const deepJson = (levels: number, leaf = '1') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

describe('nesting is bounded, with a coded error, never a stack overflow', () => {
  it('an OpenAPI JSON description 10k levels deep ends at once with E_IMPORT_PARSE', async () => {
    const deep = `${'{"type":"object","properties":{"a":'.repeat(10_000)}{"type":"string"}${'}}'.repeat(10_000)}`;
    const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":${deep}}}}}}}}}`;
    const r = await flowImport('deep.json', doc);
    expect(r.err).toMatch(/E_IMPORT_PARSE.*deep\.json: JSON nested deeper than 100 levels/);
    expect(r.err).not.toMatch(/internal error|Maximum call stack/);
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(5000);
  });

  it('a Postman collection of 10k nested folders is E_IMPORT_PARSE, not a stack overflow', async () => {
    const leaf = '{"name":"leaf","request":{"method":"GET","url":"https://api.example.test/x"}}';
    const items = `${'{"name":"f","item":['.repeat(10_000)}${leaf}${']}'.repeat(10_000)}`;
    const r = await flowImport('folders.json', `{"info":{"name":"deep","schema":"${POSTMAN_SCHEMA}"},"item":[${items}]}`);
    expect(r.err).toMatch(/E_IMPORT_PARSE.*folders\.json: JSON nested deeper than 100 levels/);
    expect(r.code).toBe(2);
  });

  it('within the bound, 40 nested folders import as before', async () => {
    const leaf = '{"name":"get thing","request":{"method":"GET","url":"https://api.example.test/things/7"}}';
    const items = `${'{"name":"f","item":['.repeat(40)}${leaf}${']}'.repeat(40)}`;
    const r = await flowImport('folders40.json', `{"info":{"name":"deep","schema":"${POSTMAN_SCHEMA}"},"item":[${items}]}`);
    expect(r.err).toMatch(/1 of 1 operations/);
    expect(r.code).toBe(0);
  });

  it('a body nested too deep inside a HAR, a curl log or a Markdown page is E_IMPORT_PARSE naming the input', async () => {
    const body = JSON.stringify(deepJson(5000));
    const har = `{"log":{"version":"1.2","creator":{"name":"t"},"entries":[{"request":{"method":"POST","url":"https://api.example.test/things","headers":[],"postData":{"mimeType":"application/json","text":${body}}},"response":{"status":201,"headers":[],"content":{"mimeType":"application/json","text":"{}"}}}]}}`;
    const curl = `curl -X POST https://api.example.test/things -H 'Content-Type: application/json' -d '${deepJson(5000)}'\n`;
    const md = `# Things\n\n## POST /things\n\nCreates a thing.\n\n\`\`\`json\n${deepJson(5000)}\n\`\`\`\n`;
    for (const [name, text] of [
      ['deep.har', har],
      ['deep.curl.sh', curl],
      ['deep.md', md],
    ]) {
      const r = await flowImport(name, text);
      expect(r.err, name).toMatch(new RegExp(`E_IMPORT_PARSE.*${name.replace(/\./g, '\\.')}: JSON nested deeper than 100 levels`));
      expect(r.code, name).toBe(2);
    }
  });

  it('a chain of 10k references is cut at 200 levels into open questions, not a stack overflow', async () => {
    const schemas: Record<string, object> = { S10000: { type: 'string' } };
    for (let i = 0; i < 10_000; i++) schemas[`S${i}`] = { type: 'object', properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/things': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } },
            responses: { '201': { description: 'ok' } },
          },
        },
      },
      components: { schemas },
    };
    const r = await flowImport('chain.json', JSON.stringify(doc));
    expect(r.out + r.err).toMatch(/nested deeper than 200 levels once its references are followed/);
    expect(r.err).toMatch(/0 of 1 operations/);
    expect(r.code).toBe(0);
  });
});

describe('inputs and the files their $refs name are regular files', () => {
  const fifo = path.join(dir, 'input.fifo');
  execFileSync('mkfifo', [fifo]);

  it('an input that is a FIFO or /dev/zero is E_IMPORT_INPUT at once (the read never starts)', async () => {
    for (const input of ['input.fifo', '/dev/zero']) {
      const r = await flowImport(input);
      expect(r.err, input).toMatch(/E_IMPORT_INPUT.*is a (named pipe \(FIFO\)|device), not a regular file/);
      expect(r.code, input).toBe(2);
    }
  });

  it('a $ref to a FIFO blocks only what needs it, with the reason, instead of hanging the import', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/things': {
          post: { requestBody: { content: { 'application/json': { schema: { $ref: './input.fifo#/Thing' } } } }, responses: { '201': { description: 'ok' } } },
        },
        '/health': { get: { responses: { '200': { description: 'ok' } } } },
      },
    };
    writeFileSync(path.join(dir, 'fifo-ref.json'), JSON.stringify(doc));
    const t0 = performance.now();
    const { plan } = await importApi(['fifo-ref.json'], { cwd: dir });
    expect(plan).toMatch(/named pipe \(FIFO\), not a regular file/);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});

describe('an import is linear in its requests', () => {
  it('a Postman collection of 20k requests imports in well under a minute', async () => {
    const item = Array.from({ length: 20_000 }, (_, i) => ({
      name: `req ${i}`,
      request: {
        method: i % 3 ? 'GET' : 'POST',
        url: `https://api.example.test/things${i % 500}/${i}`,
        header: [{ key: 'Accept', value: 'application/json' }],
        body: i % 3 ? undefined : { mode: 'raw', raw: JSON.stringify({ name: `n${i}`, qty: i }) },
      },
    }));
    writeFileSync(path.join(dir, 'big.json'), JSON.stringify({ info: { name: 'big', schema: POSTMAN_SCHEMA }, item }));
    const t0 = performance.now();
    const result = await importApi(['big.json'], { cwd: dir });
    const ms = performance.now() - t0;
    expect(result.api.operations).toHaveLength(20_000);
    // quadratic before: 68-118 s; linear: 10-15 s on a loaded 2-core machine
    expect(ms).toBeLessThan(45_000);
  }, 120_000);
});
