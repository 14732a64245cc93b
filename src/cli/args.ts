// What every command says about arguments node:util's parseArgs refuses, and about operation
// ids the project does not define.
import { closestName, didYouMean, MAX_PARTS } from '../graph/index.js';
import { unmatchedImports, type Project } from '../project/index.js';
import { formatLoc } from './format/run-output.js';

/** parseArgs' message, and for an unknown option the nearest known one: "(did you mean --format?)". */
export function argumentError(err: unknown, options: Record<string, unknown>): string {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = /Unknown option '--([^'=]+)'/.exec(message);
  const near = unknown && closestName(unknown[1], Object.keys(options));
  return near ? `${message.split('. ')[0]} (did you mean --${near}?)` : message;
}

/**
 * The ids the project does not define, each with the nearest one it does, and the import
 * patterns that matched no file (a misspelt `resource/*.yaml` is why an operation is missing
 * more often than a typo in its name); undefined when all are known.
 */
export function unknownOperations(ids: readonly string[], project: Project, cwd: string): string | undefined {
  const unknown = ids.filter((id) => !project.operations.has(id));
  if (!unknown.length) return undefined;
  const hints = unknown.map((id) => `"${id}"${didYouMean(id, project.operations.keys())}`);
  const empty = unmatchedImports(project).map(({ pattern, loc }) => `\n  import "${pattern}" (${formatLoc(loc, cwd)}) matches no file`);
  return `unknown operation ${hints.join(', ')}; operations are named resource.operation${empty.join('')}`;
}

/**
 * `--shard k/n`: { index: k, count: n } with 1 <= k <= n <= MAX_PARTS, or the usage message. A
 * project splits into at most MAX_PARTS parts and a shard runs whole parts: past that, shards
 * would only be empty (Vitest refuses more shards than test files too).
 */
export function parseShard(value: string): { index: number; count: number } | string {
  const m = /^(\d{1,9})\/(\d{1,9})$/.exec(value);
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || index < 1 || count < 1 || index > count) return `--shard takes k/n with 1 <= k <= n (as 2/4); got "${value}"`;
  if (count > MAX_PARTS) {
    return `--shard ${value}: n is at most ${MAX_PARTS}, the most parts a project is split into (each shard runs whole parts; more shards would run nothing)`;
  }
  return { index, count };
}
