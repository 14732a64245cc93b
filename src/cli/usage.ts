// What every command does with its arguments first, and how it says a usage error: one
// place, so that each command reads and answers alike.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { argumentError } from './args.js';
import { EXIT, type CliIO } from './io.js';

export interface CommandUsage {
  /** the command's name after `flow` */
  name: string;
  /** what --help prints */
  help: string;
  /** what follows a refused argument (default: `help`) */
  errorHelp?: string;
}

/**
 * node:util's parseArgs on the command's arguments: a refused one is a usage error followed by
 * the help, --help prints the help. Either way the exit code is returned instead of the values.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(usage: CommandUsage, config: T, io: CliIO): ReturnType<typeof parseArgs<T>> | number {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    io.stderr(`flow ${usage.name}: ${argumentError(err, config.options ?? {})}\n\n${usage.errorHelp ?? usage.help}`);
    return EXIT.usage;
  }
  if ((parsed.values as { help?: unknown }).help) {
    io.stdout(usage.help);
    return EXIT.ok;
  }
  return parsed;
}

/** A usage error found after parsing, with the line that points at --help. */
export function usageError(io: CliIO, name: string, message: string): number {
  io.stderr(`flow ${name}: ${message}\n(flow ${name} --help lists the options)\n`);
  return EXIT.usage;
}
