// The OS keychain behind one small interface, so the store and `flow secret` do not care
// whether it is the real one (napi-rs) or none at all.
import { FlowError } from '../../errors.js';

export interface Keychain {
  /** the stored value, or null when there is none */
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, value: string): Promise<void>;
  /** true when something was deleted, false when there was nothing */
  delete(service: string, account: string): Promise<boolean>;
  /** the account names stored under a service (never the values) */
  list(service: string): Promise<string[]>;
}

/** The keychain service name of a project: every project keeps its secrets apart. */
export function keychainService(projectName: string): string {
  return `reqflow:${projectName}`;
}

/**
 * The keychain could not be reached at all (no D-Bus session, locked keyring, no Secret
 * Service). Not the same as "not set": the message says why, so the user can fix it or
 * use the environment variable instead.
 */
export function keychainUnavailable(reason: string, cause?: unknown): FlowError {
  return new FlowError('E_KEYCHAIN_UNAVAILABLE', `the OS keychain could not be reached: ${reason}`, {
    cause,
    details: { reason },
  });
}
