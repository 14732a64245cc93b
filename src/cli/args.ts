// What every command says about arguments node:util's parseArgs refuses.
import { closestName } from '../graph/index.js';

/** parseArgs' message, and for an unknown option the nearest known one: "(did you mean --format?)". */
export function argumentError(err: unknown, options: Record<string, unknown>): string {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /Unknown option '--([^'=]+)'/.exec(message);
  const near = unknown && closestName(unknown[1], Object.keys(options));
  return near ? `${message.split('. ')[0]} (did you mean --${near}?)` : message;
}
