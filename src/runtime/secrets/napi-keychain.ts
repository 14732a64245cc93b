// The real OS keychain through @napi-rs/keyring (macOS Keychain, Windows Credential
// Manager, Secret Service on Linux). Loaded on first use: a run without secrets never pays
// for the native module.
import { keychainUnavailable, type Keychain } from './keychain.js';

type KeyringModule = typeof import('@napi-rs/keyring');

/** A keychain that does not answer in this time is reported as unreachable, not waited on. */
const TIMEOUT_MS = 10_000;

/**
 * On Linux, pin the Secret Service. napi-rs otherwise falls back to the kernel keyring
 * (keyutils), which lives only as long as the login session and, where it is not
 * permitted, makes `get` answer "not found" instead of failing: a missing keychain would
 * look like a missing secret, and a secret set today would be gone after a reboot.
 * Ignored on macOS and Windows.
 */
const ENTRY_OPTIONS = { linux: { store: 'secret-service' as const } };

export function createNapiKeychain(): Keychain {
  let mod: Promise<KeyringModule> | undefined;
  const load = () => (mod ??= import('@napi-rs/keyring'));

  async function call<T>(what: (m: KeyringModule, signal: AbortSignal) => Promise<T>): Promise<T> {
    let m: KeyringModule;
    try {
      m = await load();
    } catch (err) {
      mod = undefined;
      throw keychainUnavailable(`the keyring module could not be loaded (${messageOf(err)})`, err);
    }
    try {
      return await what(m, AbortSignal.timeout(TIMEOUT_MS));
    } catch (err) {
      throw keychainUnavailable(explain(err), err);
    }
  }

  return {
    get: (service, account) => call((m, signal) => new m.AsyncEntry(service, account, ENTRY_OPTIONS).getPassword(signal)),
    set: (service, account, value) => call((m, signal) => new m.AsyncEntry(service, account, ENTRY_OPTIONS).setPassword(value, signal)),
    delete: (service, account) => call((m, signal) => new m.AsyncEntry(service, account, ENTRY_OPTIONS).deletePassword(signal)),
    list: (service) => call(async (m, signal) => (await m.findCredentialsAsync(service, undefined, signal)).map((c) => c.account).sort()),
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// The platform's own words, plus what they mean for the user. Errors from the keychain
// name the store, never a stored value.
const HINTS: Array<[RegExp, string]> = [
  [/DBUS_SESSION_BUS_ADDRESS|autolaunch|Failed to connect to (?:address|socket)/i, 'no D-Bus session bus (a headless Linux session has no Secret Service)'],
  [/prompt was dismissed|is locked|locked collection/i, 'the keyring is locked'],
  [/ServiceUnknown|org\.freedesktop\.secrets|not provided by any \.service/i, 'no Secret Service (gnome-keyring, KeePassXC …) is running'],
  [/no result found/i, 'the Secret Service has no unlocked default keyring to use'],
];

function explain(err: unknown): string {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `it did not answer within ${TIMEOUT_MS} ms`;
  const message = messageOf(err);
  const hint = HINTS.find(([re]) => re.test(message));
  return hint ? `${hint[1]}; ${message}` : message;
}
