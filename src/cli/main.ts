// The `flow` command: dispatch to one module per command. No logic that the library lacks.
import { EXIT, processIO, type CliIO, type Command } from './io.js';

type Loader = () => Promise<{ default: Command }>;

// Loaded lazily so that `flow lint` does not pay for undici, and `flow run` not for the importer.
const COMMANDS: Record<string, Loader> = {
  lint: () => import('./commands/lint.js'),
  run: () => import('./commands/run.js'),
  graph: () => import('./commands/graph.js'),
  import: () => import('./commands/import.js'),
  secret: () => import('./commands/secret.js'),
  calibrate: () => import('./commands/calibrate.js'),
  explore: () => import('./commands/explore.js'),
  init: () => import('./commands/init.js'),
};

// One line per command for `flow --help`, here so that the help loads no command module.
const SUMMARIES: Record<string, string> = {
  lint: 'check the structure of a project (codes from docs/format.md, file:line:col)',
  run: 'run operations with every prerequisite first',
  graph: 'print the dependency graph or the schedule order',
  import: 'turn an OpenAPI / Postman / HAR / curl / Markdown description into a project',
  secret: 'set, get, delete or list secrets in the OS keychain',
  calibrate: "propose the edits the live API's answers prove (--apply writes them)",
  explore: 'property-based testing from the graph: findings as replayable tests',
  init: 'write a new project that lints clean (flow.yaml, an environment, an actor, a resource)',
};

export function usage(): string {
  // aligned on the longest name (`calibrate` outgrew a fixed width)
  const width = Math.max(...Object.keys(SUMMARIES).map((c) => c.length)) + 2;
  const lines = Object.keys(SUMMARIES).map((c) => `  ${c.padEnd(width)}${SUMMARIES[c]}`);
  return [
    'Usage: flow <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `flow <command> --help` for the options of a command.',
    'Exit codes: 0 success, 1 failures found, 2 usage error, 70 internal error.',
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    // No command is a usage error: the usage goes to stderr, as for an unknown command.
    io.stderr(usage());
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    io.stdout(`${pkg.version}\n`);
    return EXIT.ok;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(`flow: unknown command "${name}"\n\n${usage()}`);
    return EXIT.usage;
  }
  const mod = await load();
  return mod.default(rest, io);
}
