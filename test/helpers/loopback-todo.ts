// @loopback/example-todo (pinned 6.0.0, one of the test servers: test-servers.ts): a real
// third-party API that serves its own OpenAPI 3 description at /openapi.json. It runs on Node
// 20 despite its engines field. Its memory store persists to ./data/db.json relative to its
// working directory, so each server gets a fresh temp directory with a copy of the package's
// seed. Not installed: with CI=true the test FAILS, otherwise it is skipped with the reason.
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverMissing, serverPath } from './test-servers.js';

const PACKAGE = serverPath('@loopback/example-todo');

export interface LoopbackTodo {
  url: string;
  close(): Promise<void>;
}

/** Why the server cannot run here, or undefined. */
export function loopbackMissing(): string | undefined {
  return serverMissing('@loopback/example-todo', 'dist', 'index.js');
}

export async function startLoopbackTodo(timeoutMs = 60_000): Promise<LoopbackTodo> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-loopback-'));
  await cp(path.join(PACKAGE, 'data'), path.join(dir, 'data'), { recursive: true });
  const child = spawn(process.execPath, [PACKAGE], { cwd: dir, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const close = async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    return { url: await urlFromLog(child, timeoutMs), close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** It prints `Server is running at http://127.0.0.1:NNNNN` once it listens. */
function urlFromLog(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => fail(`no "Server is running at" line within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`@loopback/example-todo did not start: ${why}\n${log.slice(-2000)}`));
    };
    const read = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const m = /Server is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code) => fail(`it exited with code ${code}`));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
