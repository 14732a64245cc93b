// Third-party servers some tests run against (@loopback/example-todo, Stoplight Prism,
// @20minutes/s3rver), installed apart from the project: test/servers/package.json, with
// `npm ci --prefix test/servers` (.ci/run does it). They are large (about 600 packages of the
// 1,100 the project had), and @loopback/example-todo declares engines older than Node 20, on
// which it runs: in the project's own install they made `npm ci` warn EBADENGINE.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_SERVERS = fileURLToPath(new URL('../servers/node_modules', import.meta.url));
const TEST_SERVERS_INSTALL = 'npm ci --prefix test/servers';

/** A file of an installed test server package: `serverPath('@stoplight/prism-cli', 'dist/index.js')`. */
export function serverPath(pkg: string, ...rel: string[]): string {
  return path.join(TEST_SERVERS, pkg, ...rel);
}

/** Why `pkg` cannot run here (with how to install it), or undefined. */
export function serverMissing(pkg: string, ...rel: string[]): string | undefined {
  const file = serverPath(pkg, ...rel);
  return existsSync(file)
    ? undefined
    : `${pkg} is not installed (${path.relative(process.cwd(), file) || file} not found); install the test servers with: ${TEST_SERVERS_INSTALL}`;
}
