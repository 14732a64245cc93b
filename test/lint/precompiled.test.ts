// The build precompiles the schemas (Ajv standalone code, dist/lint/schema/validators.cjs) so
// that lint does not import Ajv and compile them at start-up. Standalone code hands out copies
// of the schema objects, so this pins that the precompiled validators report exactly what the
// ones compiled at run time report: same issues, same codes and positions, same golden output.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintableFiles } from '../../src/lint/files.js';
import { format, lint } from '../../src/lint/index.js';
import { compileValidators, standaloneValidators, type Validators } from '../../src/lint/schema/ajv.js';
import { validate } from '../../src/lint/schema/issues.js';
import { LOCATION_KEYWORD, withLocations } from '../../src/lint/schema/locations.js';
import { loadPrecompiled, useValidators } from '../../src/lint/schema/validators.js';
import { loadProject, type Project } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the generated code's require('ajv/dist/runtime/…') resolves.
const OUT = path.join(REPO, 'node_modules/.cache/reqflow-test', `validators-${process.pid}`);
const FILE = path.join(OUT, 'validators.cjs');

const y = (...lines: string[]) => `${lines.join('\n')}\n`;

/** One project breaking every schema rule: E_SCHEMA, W_UNKNOWN_KEY/METHOD/STRATEGY, W_NOT_SEQUENCE, W_EMPTY_KEY. */
const EVERYTHING_WRONG = {
  'flow.yaml': y('version: 1', 'imports:', '  - environments/*.yaml', '  - actors/*.yaml', '  - resources/*.yaml', 'colour: blue'),
  'environments/e.yaml': y('vars:', '  a: 1'),
  'actors/a.yaml': y('auth:', '  strategy: oauth2', '  location: body', 'session:', '  ttl: soon'),
  'actors/b.yaml': y('auth:', '  strategy: chain', '  steps:', '    - path: /login'),
  'actors/c.yaml': y('auth:', '  strategy: api_key', '  location: body'),
  'resources/r.yaml': y(
    'operations:',
    '  a: {method: FOO, path: x, bogus: 1, depends_on: r.b, assert: "$.x == 1"}',
    '  b: {path: /b, expect_status: "201", timeout: fast, retry: {max: -1}, actor: ""}',
    '  c: {path: /c, headers: {X-Id: {a: 1}}, extract: {id: {source: regex}}, expect_status: [], depends_on: []}',
    '  d: /x',
    '  e: {method: GET}',
  ),
};

let compiled: Validators;
let precompiled: Validators;
const projects: Record<string, Project> = {};

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(FILE, standaloneValidators());
  precompiled = loadPrecompiled(FILE)!;
  compiled = compileValidators();
  projects.broken = await loadProject(path.join(REPO, 'test/fixtures/lint/broken'));
  projects.clean = await loadProject(path.join(REPO, 'test/fixtures/lint/clean'));
  projects.example = await loadProject(path.join(REPO, 'example-project'));
  projects.everythingWrong = await loadProject(await writeProject(EVERYTHING_WRONG));
});

afterAll(async () => {
  useValidators(undefined);
  rmSync(OUT, { recursive: true, force: true });
  await cleanProjects();
});

/** Lint with the given validators; a fresh load, so no cached issues are reused. */
async function lintWith(validators: Validators, dir: string) {
  useValidators(validators);
  try {
    return lint(await loadProject(dir));
  } finally {
    useValidators(undefined);
  }
}

describe('precompiled validators', () => {
  it('load from the generated module, and every file kind has one', () => {
    expect(precompiled).toBeDefined();
    for (const kind of ['root', 'environment', 'actor', 'resource'] as const) expect(typeof precompiled[kind]).toBe('function');
  });

  it('are not used when built from other schema files (stale), or when there is no file', () => {
    const stale = path.join(OUT, 'stale.cjs');
    writeFileSync(stale, readFileSync(FILE, 'utf8').replace(/exports\.fingerprint = "[^"]*";/, 'exports.fingerprint = "other";'));
    expect(loadPrecompiled(stale)).toBeUndefined();
    expect(loadPrecompiled(path.join(OUT, 'missing.cjs'))).toBeUndefined();
  });

  it.each(['broken', 'clean', 'example', 'everythingWrong'])('find the same issues as compiled ones: %s', (name) => {
    const files = lintableFiles(projects[name]);
    const strip = (issues: ReturnType<typeof validate>) => issues.map(({ data, ...rest }) => ({ ...rest, data: JSON.stringify(data) }));
    for (const file of files) {
      expect(strip(validate(file, precompiled[file.kind])), file.path).toEqual(strip(validate(file, compiled[file.kind])));
    }
  });

  it('name where each failing keyword is written, as the schema rules expect', () => {
    const resource = lintableFiles(projects.everythingWrong).find((f) => f.path.endsWith('r.yaml'))!;
    const paths = validate(resource, precompiled.resource).map((i) => `${i.keyword} ${i.schemaPath}`);
    expect(paths).toContain('anyOf common.schema.json#/definitions/method/anyOf');
    expect(paths).toContain('additionalProperties resource.schema.json#/definitions/operation/additionalProperties');
    expect(paths).toContain('type common.schema.json#/definitions/expectStatus/type');
  });

  it('give every code of the schema rules, with the same diagnostics as compiled ones', async () => {
    const dir = projects.everythingWrong.dir;
    const a = await lintWith(precompiled, dir);
    const b = await lintWith(compiled, dir);
    expect(a.diagnostics).toEqual(b.diagnostics);
    const codes = new Set(a.diagnostics.map((d) => d.code));
    for (const code of ['E_SCHEMA', 'W_UNKNOWN_KEY', 'W_UNKNOWN_METHOD', 'W_UNKNOWN_STRATEGY', 'W_NOT_SEQUENCE', 'W_EMPTY_KEY']) expect(codes).toContain(code);
  });

  it('reproduce the golden output of the broken fixture', async () => {
    const dir = path.join(REPO, 'test/fixtures/lint/broken');
    const result = await lintWith(precompiled, dir);
    expect(format('json', result.diagnostics, { cwd: dir })).toBe(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  });
});

describe('withLocations', () => {
  it('annotates schema objects only, on a copy', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, 'x/y': { anyOf: [{ const: 1 }, true] } },
      enum: [{ type: 'not a schema' }],
      definitions: { d: { items: { type: 'number' } } },
    };
    const out = withLocations(schema, 'f.json') as any;
    expect(out[LOCATION_KEYWORD]).toBe('f.json#');
    expect(out.properties[LOCATION_KEYWORD]).toBeUndefined();
    expect(out.properties.a[LOCATION_KEYWORD]).toBe('f.json#/properties/a');
    expect(out.properties['x/y'].anyOf[0][LOCATION_KEYWORD]).toBe('f.json#/properties/x~1y/anyOf/0');
    expect(out.properties['x/y'].anyOf[1]).toBe(true);
    expect(out.enum).toEqual([{ type: 'not a schema' }]);
    expect(out.definitions.d.items[LOCATION_KEYWORD]).toBe('f.json#/definitions/d/items');
    expect(JSON.stringify(schema)).not.toContain(LOCATION_KEYWORD);
  });
});
