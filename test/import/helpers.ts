// Shared helpers of the importer tests: import crafted fixtures, write them out, read them back.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { importApi, type ImportOptions, type ImportResult } from '../../src/import/index.js';
import { docText } from '../../src/import/emit/files.js';
import { SHARED } from '../helpers/shared.js';
import { serveCrud, type CrudServer, type Handler } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/import');
export const CORPUS = path.join(SHARED, 'corpus');

export function importFixture(files: string[], options: ImportOptions = {}): Promise<ImportResult> {
  return importApi(files, { cwd: FIXTURES, ...options });
}

/** Every emitted file as text, keyed by relative path. */
export function texts(result: ImportResult): Record<string, string> {
  return Object.fromEntries(result.files.map((f) => [f.path, docText(f.doc)]));
}

export function operation(result: ImportResult, id: string): Record<string, unknown> {
  const [resource, name] = id.split('.');
  const file = result.files.find((f) => f.kind === 'resource' && f.id === resource);
  if (!file) throw new Error(`no resource ${resource}`);
  const ops = (file.doc.toJS() as { operations: Record<string, Record<string, unknown>> }).operations;
  if (!ops[name]) throw new Error(`no operation ${id}; have ${Object.keys(ops).join(', ')}`);
  return ops[name];
}

export function fileValue(result: ImportResult, rel: string): Record<string, unknown> {
  const f = result.files.find((x) => x.path === rel);
  if (!f) throw new Error(`no file ${rel}; have ${result.files.map((x) => x.path).join(', ')}`);
  return f.doc.toJS() as Record<string, unknown>;
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-import-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** `flow run` of `ops` in `<dir>/project` with every reporter: the terminal's, JSON in `out/run.json`, JUnit in `out/run.xml`. */
export function runWithEveryReport(ops: string[], baseUrl: string): string[] {
  const reports = [
    '--reporter',
    'default',
    '--reporter',
    'json',
    '--output-file',
    'json=out/run.json',
    '--reporter',
    'junit',
    '--output-file',
    'junit=out/run.xml',
  ];
  return ['run', '-p', 'project', ...ops, '--verbose', '--var', `baseUrl=${baseUrl}`, ...reports];
}

/** Every output of such a run (in `dir`): stdout, stderr, the JSON report and the JUnit one, where no secret may be. */
export async function everyReport(dir: string, r: { stdout: string; stderr: string }): Promise<string[]> {
  const json = await readFile(path.join(dir, 'out/run.json'), 'utf8');
  const junit = await readFile(path.join(dir, 'out/run.xml'), 'utf8');
  return [r.stdout, r.stderr, json, junit];
}

export interface ImportedApi {
  result: ImportResult;
  dir: string;
  server: CrudServer;
}

/**
 * The set-up of an import test that runs what it imports: `doc` written as `file` into a fresh
 * project and imported there, and the API it describes served by `handle`, before the file's
 * tests; the server closed and the project removed after them. `use` gets the three once ready.
 */
export function importedApi(file: string, doc: unknown, handle: Handler, use: (api: ImportedApi) => void): void {
  let server: CrudServer | undefined;
  beforeAll(async () => {
    const dir = await writeProject({ [file]: JSON.stringify(doc) });
    const result = await importApi([file], { cwd: dir });
    server = await serveCrud(handle);
    use({ result, dir, server });
  });
  afterAll(async () => {
    await server?.close();
    await cleanProjects();
  });
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Whether dist/ is built: bin/flow.js runs it. */
export const BUILT = existsSync(path.join(REPO, 'dist/cli/commands/run.js'));

/**
 * `node bin/flow.js <args>` in `cwd`, as a user runs it: its own process, an environment of
 * PATH and `env` only (nothing else of this one leaks in), 30 s at most; exit code and output.
 */
export function builtFlow(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO, 'bin/flow.js'), ...args],
      { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 70) : 0, stdout, stderr }),
    );
  });
}
