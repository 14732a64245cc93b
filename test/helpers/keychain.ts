// A real, isolated OS keychain for tests: a private D-Bus session bus and a gnome-keyring
// daemon (Secret Service) unlocked with a throwaway password, in fresh XDG directories.
// Nothing touches the user's own keyring. Both daemons are killed in `stop()`:
// gnome-keyring-daemon does not exit when its bus goes away.
//
// @napi-rs/keyring connects to the bus named by DBUS_SESSION_BUS_ADDRESS when it is first
// used, reading the variable at that moment: setting process.env before the first keychain
// call in the test process is enough (checked by the tests), no child process needed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ENV_KEYS = ['DBUS_SESSION_BUS_ADDRESS', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR'] as const;
const TOOLS = ['dbus-daemon', 'gnome-keyring-daemon', 'dbus-send'];
const INSTALL = 'apt-get install -y dbus gnome-keyring';

export interface KeychainAvailability {
  ok: boolean;
  /** why not, with how to install */
  reason?: string;
}

/** Synchronous, so that a describe block can be skipped at collection time (needs.ts). */
export function keychainToolsInstalled(): KeychainAvailability {
  const missing = TOOLS.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return { ok: true };
  return { ok: false, reason: `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not installed (${INSTALL})` };
}

export interface TestKeychain {
  /** the env of the session (also set on process.env until stop) */
  env: Record<(typeof ENV_KEYS)[number], string>;
  busPid: number;
  keyringPid: number;
  stop(): Promise<void>;
}

/** Start the bus and the keyring, and point this process (and its children) at them. */
export async function startTestKeychain(password = 'reqflow-test'): Promise<TestKeychain> {
  const dataHome = mkdtempSync(path.join(tmpdir(), 'reqflow-kc-data-'));
  const runtimeDir = mkdtempSync(path.join(tmpdir(), 'reqflow-kc-run-'));
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: dataHome, XDG_RUNTIME_DIR: runtimeDir };
  delete baseEnv.DBUS_SESSION_BUS_ADDRESS;

  const children: ChildProcess[] = [];
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  const cleanup = async () => {
    for (const child of children.reverse()) await kill(child);
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    rmSync(dataHome, { recursive: true, force: true });
    rmSync(runtimeDir, { recursive: true, force: true });
  };

  try {
    // --nofork: the daemon is our child, so its pid is known and node reaps it.
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], { env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(bus);
    const address = await firstLine(bus, 5000, 'dbus-daemon');
    const env = { DBUS_SESSION_BUS_ADDRESS: address, XDG_DATA_HOME: dataHome, XDG_RUNTIME_DIR: runtimeDir };
    const sessionEnv = { ...baseEnv, ...env };

    // --unlock reads the password on stdin and creates the `login` keyring unlocked.
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env: sessionEnv, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(keyring);
    keyring.stdin.end(password);
    await waitForSecretService(sessionEnv, keyring, 5000);

    Object.assign(process.env, env);
    return { env, busPid: bus.pid!, keyringPid: keyring.pid!, stop: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function firstLine(child: ChildProcess, timeoutMs: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs} ms: ${err.trim()}`)), timeoutMs);
    child.stderr?.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl).trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${err.trim()}`));
    });
  });
}

/** Ready when our daemon owns org.freedesktop.secrets on our bus. */
async function waitForSecretService(env: NodeJS.ProcessEnv, keyring: ChildProcess, timeoutMs: number): Promise<void> {
  let stderr = '';
  keyring.stderr?.on('data', (d) => (stderr += d));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (keyring.exitCode !== null) throw new Error(`gnome-keyring-daemon exited with ${keyring.exitCode}: ${stderr.trim()}`);
    const r = spawnSync(
      'dbus-send',
      ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/', 'org.freedesktop.DBus.GetConnectionUnixProcessID', 'string:org.freedesktop.secrets'],
      { env, encoding: 'utf8' },
    );
    const pid = /uint32 (\d+)/.exec(r.stdout ?? '')?.[1];
    if (pid && Number(pid) === keyring.pid) return;
    await sleep(50);
  }
  throw new Error(`gnome-keyring-daemon did not provide the Secret Service within ${timeoutMs} ms: ${stderr.trim()}`);
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(2000).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}
