// Debian's httpbin (python3-httpbin + gunicorn) on 127.0.0.1:<free port>, for tests against
// a real third-party server. Not installed: with CI=true the suite FAILS (CI must install
// it: `apt-get install -y python3-httpbin gunicorn`), otherwise it is skipped with the reason.
//
//   describeHttpbin('httpbin', (hb) => {
//     test('GET /get', async () => { const r = await fetch(`${hb().url}/get`); … });
//   });
//
// Quirks (shared/targets.md §1): no /json; /delay capped at 10 s; /status/500,503 picks
// one at random; /bearer strips leading B/e/a/r characters from the token.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { describeWhenAvailable } from './needs.js';

const GUNICORN = '/usr/bin/gunicorn';
const HTTPBIN_MODULE = '/usr/lib/python3/dist-packages/httpbin';
const HTTPBIN_INSTALL = 'apt-get update && apt-get install -y python3-httpbin gunicorn';

export interface Httpbin {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Why httpbin cannot run here, or undefined when it can. */
function httpbinMissing(): string | undefined {
  if (!existsSync(GUNICORN)) return `${GUNICORN} not found`;
  if (!existsSync(HTTPBIN_MODULE)) return `the python3-httpbin package is not installed (${HTTPBIN_MODULE} not found)`;
  return undefined;
}

/** Start httpbin and wait until it answers. Throws a clear Error when it cannot. */
async function startHttpbin(timeoutMs = 10_000): Promise<Httpbin> {
  const missing = httpbinMissing();
  if (missing) throw new Error(`httpbin is not available: ${missing}. Install it with: ${HTTPBIN_INSTALL}`);
  const child = spawn(GUNICORN, ['-b', '127.0.0.1:0', '-w', '1', '-k', 'gthread', '--threads', '16', 'httpbin:app'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    detached: true, // its own process group: master and worker are stopped together
  });
  const close = (): Promise<void> => stop(child);
  try {
    const port = await portFromLog(child, timeoutMs);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(`${url}/get`, timeoutMs);
    return { url, port, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * A describe block with httpbin started before and stopped after. Without httpbin: a
 * failing test in CI, a skipped block that says why elsewhere (needs.ts).
 */
export function describeHttpbin(name: string, body: (hb: () => Httpbin) => void): void {
  const missing = httpbinMissing();
  describeWhenAvailable(name, missing && `httpbin is not installed (${missing}); install it with: ${HTTPBIN_INSTALL}`, () => {
    let hb: Httpbin | undefined;
    beforeAll(async () => {
      hb = await startHttpbin();
    });
    afterAll(async () => {
      await hb?.close();
    });
    body(() => {
      if (!hb) throw new Error('httpbin did not start');
      return hb;
    });
  });
}

/** gunicorn logs `Listening at: http://127.0.0.1:NNNNN (pid)` on stderr. */
export function portFromLog(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => fail(`gunicorn printed no "Listening at" line within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(`gunicorn did not start: ${why}\n${log.slice(-2000)}`));
    };
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      log += chunk;
      const m = /Listening at: https?:\/\/[^:\s]+:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        child.stderr!.removeAllListeners('data');
        child.stderr!.resume(); // keep draining so gunicorn never blocks on a full pipe
        resolve(Number(m[1]));
      }
    });
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code) => fail(`gunicorn exited with code ${code}`));
  });
}

export async function waitUntilUp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Stop gunicorn and its worker at once. A graceful stop waits for requests in flight
 * (a /delay/3 the client gave up on), and httpbin has nothing to flush.
 */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGKILL'); // the group we created (detached)
    } catch {
      child.kill('SIGKILL');
    }
  });
}
