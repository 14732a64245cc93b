// Which flow.yaml a `flowTest` file runs: at run time in the worker (the fixture), and ahead
// of time in the main process (watch mode), read from the test file's source. Node only: no
// Vitest test API here, the config plugin loads this module.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT_FILE_NAME } from './options.js';

/** The flow.yaml a fixture runs: given, or found upward from the test file. */
export function projectRoot(project: string | URL | undefined, testPath: string | undefined): string {
  const base = testPath ? path.dirname(testPath) : process.cwd();
  if (project !== undefined) {
    const given = project instanceof URL || project.startsWith('file:') ? fileURLToPath(project) : path.resolve(base, project);
    return path.basename(given) === ROOT_FILE_NAME ? given : path.join(given, ROOT_FILE_NAME);
  }
  for (let dir = base; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ROOT_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`flowTest: no ${ROOT_FILE_NAME} at or above ${base}; use createFlowTest('path/to/${ROOT_FILE_NAME}')`);
}

const SUITE_IMPORT = /["']reqflow\/vitest\/suite["']/;
const FLOW_TEST = /\bflowTest\b/;
const CREATE = /\bcreateFlowTest\s*\(\s*/g;
/** the first argument, when it is a literal: `'./flow.yaml'`, `new URL('../api/', import.meta.url)`, or none */
const LITERAL = /^(?:(["'`])([^"'`$\\]*)\1|new\s+URL\s*\(\s*(["'`])([^"'`$\\]*)\3\s*,\s*import\.meta\.url\s*\))\s*[,)]/;
const NO_ARGUMENT = /^(?:\)|undefined\s*[,)])/;

/**
 * The projects a test file runs through `flowTest`/`createFlowTest`, as far as its source
 * says: a literal path, or none (the nearest flow.yaml). A path in a variable, or a fixture
 * made in another module, is not seen (watch mode then leaves the file to Vitest).
 */
export function flowTestProjects(code: string, file: string): string[] {
  if (!SUITE_IMPORT.test(code)) return [];
  const roots = new Set<string>();
  const add = (project: string | URL | undefined) => {
    try {
      roots.add(projectRoot(project, file));
    } catch {
      // no flow.yaml above the file: the fixture will say so when the test runs
    }
  };
  if (FLOW_TEST.test(code)) add(undefined);
  for (const m of code.matchAll(CREATE)) {
    const rest = code.slice(m.index + m[0].length);
    const literal = LITERAL.exec(rest);
    if (literal?.[2] !== undefined) add(literal[2]);
    else if (literal?.[4] !== undefined) add(new URL(literal[4], pathToFileURL(path.resolve(file))));
    else if (NO_ARGUMENT.test(rest)) add(undefined);
  }
  return [...roots];
}
