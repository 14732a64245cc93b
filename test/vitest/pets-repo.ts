// A throwaway repository with the pets API, its description and its flows
// (test/fixtures/contract/pets), and a vitest.config.js that hands `flow()` the options given.
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO } from './helpers.js';

const PETS = path.join(REPO, 'test/fixtures/contract/pets');
export const DRIFT = path.join(REPO, 'test/fixtures/contract/drift');

/** A port the OS says is free now: the server under test is told to listen there. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * @param options the source text of flow()'s options; `@PORT@` in it is replaced by the port
 * @param fixture the project and API to copy (default the pets API; `drift` breaks its description along a chain)
 */
export function petsRepo(options: string, port: number, fixture = PETS): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-pets-'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  cpSync(fixture, dir, { recursive: true });
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules/reqflow'), 'dir');
  const config = `import { flow } from 'reqflow/vitest';\n\nexport default { plugins: [flow(${options.replaceAll('@PORT@', String(port))})] };\n`;
  writeFileSync(path.join(dir, 'vitest.config.js'), config);
  return dir;
}

/** The options of a managed pets API on `port` (PETS_BREAK passes through from the environment). */
export const SERVER = `{ command: 'node api/main.js', env: { PORT: '@PORT@', PETS_BREAK: process.env.PETS_BREAK ?? '' }, url: 'http://127.0.0.1:@PORT@/v1/health', timeout: 20000, watch: ['api/**/*.js'] }`;
