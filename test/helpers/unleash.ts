// Unleash 7.5.1, a real feature-flag server, on a throwaway PostgreSQL cluster: for tests
// against an API nobody here wrote (its own OpenAPI 3.0.3 at /docs/openapi.json, session and
// token logins, rate limits). Unleash is installed apart (test/servers/unleash/package.json,
// `npm ci --prefix test/servers/unleash --ignore-scripts`), PostgreSQL from Debian
// (`apt-get install postgresql`); .ci/run installs both. Absent: a skip that says why, or a
// failure under CI=true (needs.ts).
//
//   describeUnleash('unleash', (server) => {
//     test('lists flags', async () => {
//       const u = server();
//       const r = await fetch(`${u.url}/api/admin/projects/default/features`, { headers: { authorization: u.adminToken } });
//     });
//   });
//
// Each start is a new cluster and a new Unleash, both stopped (process group) by stop().
// Behaviour to expect: a POST without `content-type: application/json` answers 415 even with
// no body; DELETE of a flag archives it (DELETE /api/admin/archive/{name} removes it);
// POST /api/admin/maintenance {"enabled": true} makes every later write answer 503; simple
// login (/auth/simple/login) is limited to 10 per minute.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { describeWhenAvailable } from './needs.js';

const UNLEASH_DIR = fileURLToPath(new URL('../servers/unleash', import.meta.url));
const UNLEASH_SERVER = path.join(UNLEASH_DIR, 'node_modules/unleash-server/dist/server.js');
const UNLEASH_INSTALL = 'npm ci --prefix test/servers/unleash --ignore-scripts';
const PG_ROOT = '/usr/lib/postgresql';
const PG_INSTALL = 'apt-get update && apt-get install -y postgresql';
/** initdb refuses root: as root the cluster runs as Debian's `postgres` user. */
const PG_USER = 'postgres';

export interface Unleash {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** An admin API token, sent raw in `Authorization` (`Bearer <token>` is accepted too). */
  adminToken: string;
  /** The first admin's login, for `POST /auth/simple/login`. */
  adminUser: string;
  adminPassword: string;
  /** `MARK=<mark>` is in the environment of every process it started (markedProcesses, processes.ts). */
  mark: string;
  /** Stop Unleash, then PostgreSQL, and remove the cluster. Safe to call twice. */
  stop(): Promise<void>;
  /** Whether each process still runs, and the tail of what a stopped one printed: for the error when a request cannot connect. */
  state(): string;
}

/** The newest PostgreSQL binaries Debian installed (`/usr/lib/postgresql/<major>/bin`), or undefined. */
function pgBin(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const majors = readdirSync(PG_ROOT)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(PG_ROOT, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : path.join(PG_ROOT, majors[0], 'bin');
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** Why Unleash cannot run here (with how to install what is missing), or undefined. */
export function unleashMissing(): string | undefined {
  if (!existsSync(UNLEASH_SERVER))
    return `unleash-server is not installed (${path.relative(process.cwd(), UNLEASH_SERVER)} not found); install it with: ${UNLEASH_INSTALL}`;
  if (!pgBin()) return `PostgreSQL is not installed (no ${PG_ROOT}/<version>/bin/initdb); install it with: ${PG_INSTALL}`;
  if (asRoot()) {
    try {
      execFileSync('id', ['-u', PG_USER], { stdio: 'ignore' });
    } catch {
      return `running as root, PostgreSQL needs the "${PG_USER}" user, which is absent; install it with: ${PG_INSTALL}`;
    }
  }
  return undefined;
}

/**
 * A describe block with one Unleash started before and stopped after. Without Unleash or
 * PostgreSQL: a failing test in CI, a skipped block that says why elsewhere.
 */
export function describeUnleash(name: string, body: (server: () => Unleash) => void): void {
  describeWhenAvailable(name, unleashMissing(), () => {
    let server: Unleash | undefined;
    beforeAll(async () => {
      server = await startUnleash();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    }, 60_000);
    body(() => {
      if (!server) throw new Error('Unleash did not start');
      return server;
    });
  });
}

/** A port free on 127.0.0.1 now (the kernel's pick; a race with other processes is unlikely). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A child that keeps the last few KB of what it prints, for the error when it fails. */
interface Logged {
  child: ChildProcess;
  log(): string;
}

/** `<what> runs`, or how it ended and the last lines it printed. */
function processState(what: string, proc: Logged | undefined): string {
  if (!proc) return `${what} was not started`;
  const { exitCode, signalCode } = proc.child;
  if (exitCode === null && signalCode === null) return `${what} runs`;
  return `${what} exited (${signalCode ?? `code ${exitCode}`}):\n${proc.log()}`;
}

function spawnLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Logged {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('error', (err) => keep(Buffer.from(`\n${err.message}\n`)));
  return { child, log: () => tail };
}

/** Run a PostgreSQL tool to its end, as the postgres user when we are root. */
function pgTool(bin: string, tool: string, args: string[]): void {
  const [cmd, all] = asRoot() ? ['runuser', ['-u', PG_USER, '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
  execFileSync(cmd, all, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000, cwd: tmpdir() });
}

/** Signal a detached child's whole group, then SIGKILL it if it has not exited within `graceMs`. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (sig: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        // gone already
      }
    };
    const timer = setTimeout(() => kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    kill(signal);
  });
}

/** Poll `url` until `ok(body)`; the error names the last answer and the child's output. */
async function waitFor(url: string, ok: (body: string) => boolean, timeoutMs: number, proc: Logged, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited with code ${proc.child.exitCode}:\n${proc.log()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      if (ok(body)) return;
      last = `${res.status} ${body.slice(0, 200)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what} was not ready at ${url} within ${timeoutMs} ms (last: ${last}):\n${proc.log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Start PostgreSQL and Unleash on free ports of 127.0.0.1 and wait for `GET /health`. */
export async function startUnleash(timeoutMs = 90_000): Promise<Unleash> {
  const missing = unleashMissing();
  if (missing) throw new Error(`Unleash cannot run: ${missing}`);
  const bin = pgBin()!;
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-unleash-'));
  const mark = `reqflow-unleash-${path.basename(dir)}`;
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  let pg: Logged | undefined;
  let unleash: Logged | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (unleash) await stopGroup(unleash.child, 'SIGTERM', 10_000);
    // SIGINT: PostgreSQL's fast shutdown (ends the sessions, no recovery needed)
    if (pg) await stopGroup(pg.child, 'SIGINT', 10_000);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const data = path.join(dir, 'data');
    pgTool(bin, 'initdb', ['-D', data, '-U', PG_USER, '-A', 'trust', '-E', 'UTF8', '--locale=C']);
    const pgPort = await freePort();
    const pgArgs = ['-D', data, '-p', String(pgPort), '-c', 'listen_addresses=127.0.0.1', '-k', dir, '-c', 'fsync=off'];
    const pgEnv = { ...process.env, MARK: mark };
    pg = asRoot()
      ? spawnLogged('runuser', ['-u', PG_USER, '--', path.join(bin, 'postgres'), ...pgArgs], pgEnv, tmpdir())
      : spawnLogged(path.join(bin, 'postgres'), pgArgs, pgEnv, tmpdir());
    await waitForPg(bin, dir, pgPort, pg, timeoutMs);
    const dbPassword = randomBytes(12).toString('hex');
    pgTool(bin, 'psql', [
      '-h',
      dir,
      '-p',
      String(pgPort),
      '-U',
      PG_USER,
      '-v',
      'ON_ERROR_STOP=1',
      '-q',
      '-c',
      `CREATE USER unleash PASSWORD '${dbPassword}'`,
      '-c',
      'CREATE DATABASE unleash OWNER unleash',
    ]);

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const adminToken = `*:*.${randomBytes(16).toString('hex')}`;
    const adminUser = 'admin';
    const adminPassword = `Pw-${randomBytes(9).toString('base64url')}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      MARK: mark,
      NODE_ENV: 'production',
      DATABASE_URL: `postgres://unleash:${dbPassword}@127.0.0.1:${pgPort}/unleash`,
      DATABASE_SSL: 'false',
      HTTP_PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      UNLEASH_URL: url,
      UNLEASH_DEFAULT_ADMIN_USERNAME: adminUser,
      UNLEASH_DEFAULT_ADMIN_PASSWORD: adminPassword,
      INIT_ADMIN_API_TOKENS: adminToken,
      SEND_TELEMETRY: 'false',
      CHECK_VERSION: 'false',
      LOG_LEVEL: 'warn',
    };
    unleash = spawnLogged(process.execPath, [UNLEASH_SERVER], env, UNLEASH_DIR);
    await waitFor(`${url}/health`, (b) => b.includes('"GOOD"'), timeoutMs, unleash, 'Unleash');
    const state = (): string => `${processState('Unleash', unleash)}; ${processState('PostgreSQL', pg)}`;
    return { url, adminToken, adminUser, adminPassword, mark, stop, state };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Wait until PostgreSQL accepts connections on its socket (pg_isready). */
async function waitForPg(bin: string, dir: string, port: number, pg: Logged, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pg.child.exitCode !== null) throw new Error(`PostgreSQL exited with code ${pg.child.exitCode}:\n${pg.log()}`);
    try {
      execFileSync(path.join(bin, 'pg_isready'), ['-q', '-h', dir, '-p', String(port)], { stdio: 'ignore', timeout: 5000 });
      return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${timeoutMs} ms:\n${pg.log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Someone other than the admin the tests log in as: a user of their own and their personal access token. */
export interface UnleashUser {
  id: number;
  username: string;
  password: string;
  /** A personal access token (`user:…`), sent raw in `Authorization`. */
  token: string;
}

/** An Unleash admin API request that must succeed: the parsed JSON answer (undefined when empty). */
export async function unleashApi(u: Unleash, method: string, apiPath: string, body?: unknown, token = u.adminToken): Promise<unknown> {
  const res = await fetch(`${u.url}${apiPath}`, {
    method,
    headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  }).catch((err: unknown) => {
    // a refused connection says nothing of why: say whether the server (or its database) ended
    throw new Error(`${method} ${apiPath}: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}; ${u.state()}`);
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${apiPath} answered ${res.status}: ${text.slice(0, 500)}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** Unleash's root roles (GET /api/admin/user-admin lists them as rootRoles). */
export const UNLEASH_ROLES = { admin: 1, editor: 2, viewer: 3 } as const;

/**
 * A second user (`someone` unless named; an admin unless `rootRole` says otherwise), created by
 * the admin, logged in once (simple login: at most 10 a minute per server) to get a personal
 * access token. Use it to seed data the tests' own credentials did not create, or to act as a role.
 */
export async function createUser(u: Unleash, username = 'someone', rootRole: number = UNLEASH_ROLES.admin): Promise<UnleashUser> {
  const password = `Pw-${randomBytes(9).toString('base64url')}`;
  const created = (await unleashApi(u, 'POST', '/api/admin/user-admin', {
    username,
    email: `${username}@example.com`,
    name: username,
    rootRole,
    password,
    sendEmail: false,
  })) as { id: number };
  const login = await fetch(`${u.url}/auth/simple/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(15_000),
  });
  await login.arrayBuffer();
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (!login.ok || cookie === '') throw new Error(`simple login of ${username} answered ${login.status} (rate limit: 10 a minute)`);
  const res = await fetch(`${u.url}/api/admin/user/tokens`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ description: `seed ${username}`, expiresAt: '2099-01-01T00:00:00Z' }),
    signal: AbortSignal.timeout(15_000),
  });
  const pat = (await res.json()) as { secret?: string };
  if (!res.ok || typeof pat.secret !== 'string') throw new Error(`personal access token of ${username}: ${res.status}`);
  return { id: created.id, username, password, token: pat.secret };
}

/**
 * A feature flag created by `by` (a user from createUser; the admin token when omitted) in
 * `project` (Unleash's open-source edition has only `default`). Returns its name.
 */
export async function seedFeature(u: Unleash, name: string, by?: UnleashUser, project = 'default'): Promise<string> {
  await unleashApi(
    u,
    'POST',
    `/api/admin/projects/${project}/features`,
    { name, type: 'release', description: `seeded by ${by?.username ?? 'admin token'}` },
    by?.token ?? u.adminToken,
  );
  return name;
}
