// One table per command drives both node:util's parseArgs and the "Options:" part of its
// --help, so the two cannot drift apart. A row is a parseArgs option plus what --help says
// (parseArgs reads only type, short, multiple and default, and ignores the rest).
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { isOn, type CacheOptions } from '../project/index.js';
import { createBrake, MAX_RETRY_WAIT_MS, type Brake } from '../http/index.js';

/** One option as parseArgs reads it (@types/node 20 does not export the name). */
type ParseArgsOption = NonNullable<ParseArgsConfig['options']>[string];

type OptionRow = ParseArgsOption & {
  /** the value's placeholder in --help: `<dir>` */
  arg?: string;
  /** what --help says; one string per line (the later lines continue the first) */
  help: string | readonly string[];
};

export type OptionTable = Record<string, OptionRow>;

/** The "Options:" lines of --help: `  -p, --project <dir>  text`, the texts aligned. */
export function optionHelp(table: OptionTable): string {
  const heads = Object.entries(table).map(([name, row]) => `  ${row.short ? `-${row.short}, ` : '    '}--${name}${row.arg ? ` ${row.arg}` : ''}`);
  const width = Math.max(...heads.map((h) => h.length)) + 2;
  const lines: string[] = [];
  Object.values(table).forEach((row, i) => {
    const [first, ...rest] = typeof row.help === 'string' ? [row.help] : row.help;
    lines.push(`${heads[i].padEnd(width)}${first}`);
    for (const more of rest) lines.push(`${' '.repeat(width)}${more}`);
  });
  return `${lines.join('\n')}\n`;
}

/** --var, as the commands that send requests to an API under test read it (flow run, flow calibrate, flow explore). */
export const VAR_OPTION = {
  var: {
    type: 'string',
    multiple: true,
    default: [] as string[],
    arg: '<name=value>',
    help: ['value for a <SET_VIA_--var> placeholder, or for any environment', 'variable (it wins over the file); repeatable; also FLOW_VAR_<name>'],
  },
} satisfies OptionTable;

/** --rate, for the commands that send requests to an API under test (flow run, flow calibrate, flow explore). */
export const RATE_OPTION = {
  rate: {
    type: 'string',
    arg: '<n>',
    help: ['at most n requests a second, logins included (a number > 0;', 'default: no cap); a 429 or 503 with Retry-After is waited for always'],
  },
} satisfies OptionTable;

/** The brake of --rate (undefined: no cap), or the usage message for a value that is not a rate. */
export function parseRate(value: string | undefined): Brake | string {
  if (value === undefined) return createBrake();
  const rate = Number(value);
  if (!(rate > 0) || !Number.isFinite(rate)) return `--rate is a number of requests a second above 0; got "${value}"`;
  return createBrake(rate);
}

/** The line a summary adds when answers asked the run to wait (429 or 503 with Retry-After). */
export function brakeLine(brake: Brake): string {
  if (!brake.waited) return '';
  return `${brake.waited} answer(s) were 429 or 503 with Retry-After: each was waited for (at most ${MAX_RETRY_WAIT_MS / 1000} s) and the request sent again\n`;
}

/** The parse cache's options, shared by every command that loads a project (README "The parse cache"). */
export const CACHE_OPTIONS = {
  'no-cache': { type: 'boolean', default: false, help: 'parse every file again: no parse cache read or written (also FLOW_NO_CACHE=1)' },
  'cache-dir': { type: 'string', arg: '<dir>', help: 'where the parse cache lives (also FLOW_CACHE_DIR); default ~/.cache/reqflow' },
} satisfies OptionTable;

/** What --no-cache and --cache-dir (or FLOW_NO_CACHE and FLOW_CACHE_DIR in `env`) ask of the parse cache. */
export function cacheOptions(values: { 'no-cache'?: boolean; 'cache-dir'?: string }, env: NodeJS.ProcessEnv, cwd: string): CacheOptions {
  const off = values['no-cache'] === true || isOn(env.FLOW_NO_CACHE);
  const dir = values['cache-dir'] ?? env.FLOW_CACHE_DIR;
  return { enabled: !off, dir: dir ? path.resolve(cwd, dir) : undefined };
}
