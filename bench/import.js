// Import benchmark: a generated OpenAPI 3.0 description of about 4 MB and 800 operations
// (shared schemas, $refs, examples, a remote $ref inside an example value, as public ones
// have), `flow import … --out …` end to end in a child process: reading, $ref resolution,
// inference, the checks and lint. Goal (issue 18): under 10 s and 500 MB, with a progress line
// on stderr when it takes longer than a second.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dump } from 'js-yaml';
import { FLOW, measureNode, table } from './lib.js';

const RESOURCES = 200; // 4 operations each

function schema(r) {
  const properties = { id: { type: 'string', example: `${r}_1` } };
  for (let p = 0; p < 95; p++)
    properties[`field_${p}`] = {
      type: 'string',
      description: `Field ${p} of resource ${r}: a sentence long enough to look like the real descriptions of a public API.`,
      example: `value ${p}`,
    };
  properties.owner = { $ref: '#/components/schemas/Owner' };
  return { type: 'object', required: ['field_0', 'field_1'], properties };
}

export function generateDescription() {
  const paths = {};
  const schemas = { Owner: { type: 'object', properties: { id: { type: 'string' }, owner: { $ref: '#/components/schemas/Owner' } } } };
  const examples = {};
  for (let r = 0; r < RESOURCES; r++) {
    const name = `thing${r}s`;
    const ref = { $ref: `#/components/schemas/Thing${r}` };
    schemas[`Thing${r}`] = schema(r);
    examples[`Thing${r}`] = { value: { field_0: 'a', field_1: 'b', link: { $ref: 'https://example.invalid/never-fetched.json' } } };
    const ok = (s) => ({ description: 'ok', content: { 'application/json': { schema: s } } });
    paths[`/${name}`] = {
      get: { operationId: `list${r}`, summary: `List ${name}`, responses: { 200: ok({ type: 'array', items: ref }) } },
      post: {
        operationId: `create${r}`,
        requestBody: { content: { 'application/json': { schema: ref, examples: { one: { $ref: `#/components/examples/Thing${r}` } } } } },
        responses: { 201: ok(ref) },
      },
    };
    paths[`/${name}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get${r}`, responses: { 200: ok(ref), 404: { description: 'missing' } } },
      delete: { operationId: `delete${r}`, responses: { 204: { description: 'gone' } } },
    };
  }
  return dump(
    {
      openapi: '3.0.3',
      info: { title: 'Generated', version: '1' },
      servers: [{ url: 'https://api.generated.test/v1' }],
      security: [{ bearer: [] }],
      paths,
      components: { schemas, examples, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    { noRefs: true, lineWidth: -1 },
  );
}

export async function benchImport() {
  const dir = await mkdtemp(path.join(tmpdir(), 'flow-import-bench-'));
  try {
    const text = generateDescription();
    await writeFile(path.join(dir, 'api.yaml'), text);
    const r = await measureNode([FLOW, 'import', 'api.yaml', '--out', 'project', '--plan', 'PLAN.md'], { cwd: dir });
    const summary = r.stderr.split('\n').filter(Boolean).at(-1) ?? '';
    const coverage = /coverage: (.*)/.exec(r.stderr)?.[1] ?? '?';
    const progress = r.stderr.split('\n').filter((l) => /^flow import: (read|inferred) /.test(l)).length;
    return {
      title: 'Import (issue 18): a generated 4 MB OpenAPI description',
      table: table(
        ['input', 'time', 'peak RSS', 'progress lines', 'coverage', 'exit'],
        [
          [
            `${(text.length / 1e6).toFixed(1)} MB, ${RESOURCES * 4} operations`,
            `${(r.ms / 1000).toFixed(1)} s`,
            `${Math.round(r.rssMB)} MB`,
            progress,
            coverage,
            r.code,
          ],
        ],
      ),
      notes: `Goal: under 10 s and 500 MB. Last line: ${summary}`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
