// `flow init [dir]`: a new project that lints clean, to start from.
import path from 'node:path';
import { hasCode } from '../../errors.js';
import { initFiles } from '../init/files.js';
import { vitestConfigName, writeInitFiles } from '../init/write.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { optionHelp, type OptionTable } from '../options.js';
import { parseCommandArgs, usageError } from '../usage.js';

const OPTIONS = {
  name: { type: 'string', arg: '<name>', help: "the project's name (default: the directory's name)" },
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

const HELP = `Usage: flow init [dir] [options]

Writes a project that lints clean into dir (default: .; made if missing): flow.yaml, an
environment (environments/local.yaml), an actor (actors/user.yaml), a resource
(resources/items.yaml), each with comments pointing at docs/format.md; and a Vitest config
when Vitest is installed for dir's package (vitest.config.ts, or vitest.config.mts in a
CommonJS package). An existing file is never replaced: nothing is written then.

Options:
${optionHelp(OPTIONS)}
Exit codes: 0 written, 1 a file exists already (E_INIT_EXISTS) or cannot be written, 2 usage error.
`;

export default (async function init(argv: string[], io: CliIO): Promise<number> {
  const args = parseCommandArgs({ name: 'init', help: HELP }, { args: argv, allowPositionals: true, options: OPTIONS }, io);
  if (typeof args === 'number') return args;
  const { values: o, positionals } = args;
  if (positionals.length > 1) return usageError(io, 'init', `one directory at most; got ${positionals.join(', ')}`);
  const dir = path.resolve(io.cwd, positionals[0] ?? '.');
  const name = o.name?.trim() || path.basename(dir);
  const files = initFiles(name, vitestConfigName(dir));
  try {
    writeInitFiles(dir, files);
  } catch (err) {
    const code = hasCode(err) ? err.code : 'E_INTERNAL';
    io.stderr(`flow init: ${code}: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  const where = path.relative(io.cwd, dir) || '.';
  io.stdout(
    `${files.map((f) => `created ${path.join(where, f.path)}\n`).join('')}\nNext: set baseUrl (flow run --var baseUrl=…) and the API_TOKEN secret, then \`flow lint -p ${where}\` and \`flow run -p ${where} --all\`.\n`,
  );
  return EXIT.ok;
} satisfies Command);
