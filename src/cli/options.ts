// One table per command drives both node:util's parseArgs and the "Options:" part of its
// --help, so the two cannot drift apart. A row is a parseArgs option plus what --help says
// (parseArgs reads only type, short, multiple and default, and ignores the rest).
import type { ParseArgsConfig } from 'node:util';

/** One option as parseArgs reads it (@types/node 20 does not export the name). */
type ParseArgsOption = NonNullable<ParseArgsConfig['options']>[string];

export type OptionRow = ParseArgsOption & {
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
