// The real keychain module with no session bus to reach (set before its first use: it
// keeps the address it first saw). Not a crash: coded errors that say why and name the env var.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { createNapiKeychain, createSecretStore } from '../../../src/runtime/secrets/index.js';
import { rejection } from '../template/helpers.js';
import { recordedIO, tempProject } from './cli-io.js';

describe('keychain unreachable (no D-Bus session bus)', () => {
  const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
  let dir: string;

  beforeAll(() => {
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/reqflow-test-bus';
    dir = tempProject('kc-unreachable');
  });

  afterAll(() => {
    if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('the keychain rejects with E_KEYCHAIN_UNAVAILABLE and the reason', async () => {
    const err = await rejection(createNapiKeychain().get('reqflow:x', 'A'));
    expect(err.code).toBe('E_KEYCHAIN_UNAVAILABLE');
    expect(err.message).toContain('the OS keychain could not be reached: no D-Bus session bus');
  });

  it('a secret is E_SECRET_MISSING saying the keychain could not be reached, naming the env var and not `flow secret set` (it would fail too)', async () => {
    const err = await rejection(createSecretStore({ projectName: 'x', env: {} }).get('TOKEN'));
    expect(err.code).toBe('E_SECRET_MISSING');
    expect(err.message).toContain('the OS keychain could not be reached (no D-Bus session bus');
    expect(err.message).toContain('README.md, Troubleshooting');
    expect(err.message).toMatch(/Set the environment variable FLOW_SECRET_TOKEN$/);
    expect(err.message).not.toContain('flow secret set');
  });

  it('the env var still works', async () => {
    expect(await createSecretStore({ projectName: 'x', env: { FLOW_SECRET_TOKEN: 'from-env-1' } }).get('TOKEN')).toBe('from-env-1');
  });

  it('flow secret set fails with exit 1 and the reason, never a stack trace', async () => {
    const rec = recordedIO({ cwd: dir, stdin: 'value-123' });
    expect(await main(['secret', 'set', 'TOKEN'], rec.io)).toBe(1);
    expect(rec.err()).toMatch(/^flow secret: E_KEYCHAIN_UNAVAILABLE: the OS keychain could not be reached: no D-Bus session bus/);
    expect(rec.err()).not.toContain('value-123');
    expect(rec.err()).not.toContain('    at ');
  });
});
