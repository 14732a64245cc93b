// `flow secret set|get|delete|list`: the project's secrets in the OS keychain (service
// `reqflow:<project name>`, account NAME), where `{{secret.NAME}}` and `!secret NAME` find them.
import type { ReadStream } from 'node:tty';
import { parseCommandArgs } from '../usage.js';
import { FlowError, hasCode, isErrorCode } from '../../errors.js';
import { loadProject } from '../../project/index.js';
import { createNapiKeychain, createSecretStore, keychainService, secretFromEnv, type Keychain } from '../../runtime/index.js';
import { optionHelp, type OptionTable } from '../options.js';
import { EXIT, type CliIO, type Command } from '../io.js';

const OPTIONS = {
  project: { type: 'string', arg: '<dir>', help: 'the project directory (default: the current directory)' },
  global: {
    type: 'boolean',
    help: ['secrets of reqflow itself, not of a project (service "reqflow"):', 'LLM_API_KEY, the key `flow import --llm` sends to the model'],
  },
  reveal: { type: 'boolean', help: 'print the value even when stdout is not a terminal' },
  help: { type: 'boolean', short: 'h', help: 'this help' },
} satisfies OptionTable;

const HELP = `Usage: flow secret <set|get|delete|list> [NAME] [--project <dir> | --global] [--reveal]

Keeps the project's secrets in the OS keychain (service "reqflow:<project name>",
account NAME), where {{secret.NAME}} and !secret NAME find them at run time. The
environment variable FLOW_SECRET_<NAME> takes precedence over the keychain (for CI).

  set NAME      store a value: typed at a hidden prompt on a terminal, or read from
                stdin when piped (echo -n "$TOKEN" | flow secret set NAME; one
                trailing newline is dropped). Never taken from the command line:
                arguments are visible to other users in the process list and are
                kept in shell history.
  get NAME      on a terminal, or with --reveal, print the value a run would use;
                otherwise only say whether it is set and where.
  delete NAME   remove it from the keychain.
  list          the names stored for this project (never the values).

Options:
${optionHelp(OPTIONS)}Exit codes: 0 done (list: also when nothing is stored), 1 not set / keychain
unreachable, 2 usage error.
`;

/** The command's outside world beyond CliIO: the keychain. */
export interface SecretCommandDeps {
  keychain?: () => Keychain;
}

type Sub = 'set' | 'get' | 'delete' | 'list';

interface Job {
  sub: Sub;
  name: string;
  service: string;
  projectName: string;
  keychain: Keychain;
  io: CliIO;
  reveal: boolean;
}

/** Secret names are what a reference can spell: `{{secret.NAME}}`. */
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const SUBCOMMANDS: Record<Sub, (job: Job) => Promise<number>> = {
  async set(job) {
    const value = await readValue(job);
    if (value === undefined) {
      job.io.stderr('flow secret: cancelled; nothing stored\n');
      return EXIT.failed;
    }
    if (!value) throw usage('the value is empty; nothing stored');
    await job.keychain.set(job.service, job.name, value);
    job.io.stdout(`stored ${job.name} in the OS keychain (service "${job.service}")\n`);
    const env = secretFromEnv(job.name, job.io.env);
    if (env) job.io.stderr(`note: ${env.envVar} is set in this environment; runs use it instead of the keychain\n`);
    return EXIT.ok;
  },

  async get(job) {
    const env = secretFromEnv(job.name, job.io.env);
    const store = createSecretStore({ projectName: job.projectName, service: job.service, env: job.io.env, keychain: job.keychain });
    const value = await store.get(job.name);
    const where = env ? `the environment variable ${env.envVar}` : `the OS keychain (service "${job.service}")`;
    if (job.io.stdoutIsTTY) job.io.stdout(`${value}\n`);
    // Piped: exactly the value, so `$(flow secret get X --reveal)` and files get it unchanged.
    else if (job.reveal) job.io.stdout(value);
    else job.io.stdout(`${job.name} is set, from ${where} (use --reveal to print it)\n`);
    return EXIT.ok;
  },

  async delete(job) {
    const deleted = await job.keychain.delete(job.service, job.name);
    if (!deleted) {
      job.io.stderr(`flow secret: ${job.name} is not in the OS keychain (service "${job.service}"); nothing deleted\n`);
      return EXIT.failed;
    }
    job.io.stdout(`deleted ${job.name} from the OS keychain (service "${job.service}")\n`);
    const env = secretFromEnv(job.name, job.io.env);
    if (env) job.io.stderr(`note: ${env.envVar} is still set in this environment\n`);
    return EXIT.ok;
  },

  async list(job) {
    const names = await job.keychain.list(job.service);
    if (names.length === 0) job.io.stderr(`no secrets stored for service "${job.service}"\n`);
    for (const name of names) job.io.stdout(`${name}\n`);
    return EXIT.ok;
  },
};

export function secretCommand(deps: SecretCommandDeps = {}): Command {
  return async (argv, io) => {
    try {
      return await runSecret(argv, io, deps);
    } catch (err) {
      if (hasCode(err) && err.code === 'E_USAGE') {
        io.stderr(`flow secret: ${err.message}\n\n${HELP}`);
        return EXIT.usage;
      }
      if (hasCode(err)) {
        io.stderr(`flow secret: ${err.code}: ${err.message}\n`);
        return err.code === 'E_PROJECT_NOT_FOUND' || err.code === 'E_NO_ROOT' ? EXIT.usage : EXIT.failed;
      }
      throw err;
    }
  };
}

/** The keychain service of `--global` secrets: reqflow's own, not a project's. */
export const GLOBAL_SERVICE = 'reqflow';

async function runSecret(argv: string[], io: CliIO, deps: SecretCommandDeps): Promise<number> {
  const parsed = parseCommandArgs({ name: 'secret', help: HELP }, { args: argv, allowPositionals: true, options: OPTIONS }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, name = '', ...extra] = positionals;
  if (!sub || !Object.hasOwn(SUBCOMMANDS, sub)) throw usage(sub ? `unknown subcommand "${sub}"` : 'a subcommand is required');
  if (sub === 'set' && extra.length) throw usage('the value is never taken from the command line; type it at the prompt or pipe it to stdin');
  if (extra.length) throw usage(`unexpected argument "${extra[0]}"`);
  if (sub === 'list' ? name : !NAME_RE.test(name)) {
    throw usage(
      sub === 'list'
        ? `unexpected argument "${name}"`
        : name
          ? `"${name}" is not a secret name (letters, digits, _ and -; as in {{secret.NAME}})`
          : 'NAME is required',
    );
  }
  if (values.global && values.project !== undefined) throw usage('give --project or --global, not both');
  const projectName = values.global ? '' : await readProjectName(values.project ?? io.cwd);
  const job: Job = {
    sub: sub as Sub,
    name,
    projectName,
    service: values.global ? GLOBAL_SERVICE : keychainService(projectName),
    keychain: (deps.keychain ?? createNapiKeychain)(),
    io,
    reveal: Boolean(values.reveal),
  };
  return SUBCOMMANDS[job.sub](job);
}

/** The service name depends on the root's `name:`; a root that did not parse gives no name to trust. */
async function readProjectName(dir: string): Promise<string> {
  const project = await loadProject(dir);
  const fatal = project.diagnostics.find(
    (d) =>
      d.severity === 'error' && (d.code === 'E_PROJECT_NOT_FOUND' || d.code === 'E_NO_ROOT' || (d.file === project.rootFile && ROOT_UNREADABLE.has(d.code))),
  );
  if (fatal || !project.files.some((f) => f.kind === 'root')) {
    const why = fatal ? fatal.message : `${project.rootFile} could not be read`;
    throw new FlowError(fatal && isErrorCode(fatal.code) ? fatal.code : 'E_NO_ROOT', `${why}; the keychain service name comes from its "name:"`);
  }
  return project.name;
}

const ROOT_UNREADABLE = new Set(['E_YAML_PARSE', 'E_ROOT_NOT_MAPPING', 'E_FILE_UNREADABLE', 'E_FILE_TOO_LARGE', 'E_FILE_BINARY']);

function usage(message: string): FlowError {
  return new FlowError('E_USAGE', message);
}

// ---- reading the value: a hidden prompt on a terminal, else stdin ----

async function readValue(job: Job): Promise<string | undefined> {
  const stdin = job.io.stdin as Partial<ReadStream> & NodeJS.ReadableStream;
  if (stdin.isTTY && typeof stdin.setRawMode === 'function') {
    return readHidden(stdin as ReadStream, (t) => job.io.stderr(t), `Value for ${job.name} (input hidden): `);
  }
  const text = await readAll(stdin);
  return text.replace(/\r?\n$/, '');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Read one line with the terminal's echo off (raw mode): nothing typed is shown, not even
 * stars. Enter ends; Ctrl-C, or Ctrl-D on an empty line, cancels (undefined); Backspace
 * and Ctrl-U edit; escape sequences (arrow keys) are ignored.
 */
export function readHidden(stdin: ReadStream, write: (text: string) => void, prompt: string): Promise<string | undefined> {
  write(prompt);
  return new Promise((resolve) => {
    let chars: string[] = [];
    const finish = (value: string | undefined) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      write('\n');
      resolve(value);
    };
    // Escape sequences (arrow keys, Alt+key) are skipped whole: ESC [ params final, ESC O x, ESC x.
    let escape: 'none' | 'start' | 'csi' | 'ss3' = 'none';
    const onData = (chunk: Buffer | string) => {
      for (const c of Array.from(String(chunk))) {
        const code = c.codePointAt(0) ?? 0;
        if (escape === 'start') escape = c === '[' ? 'csi' : c === 'O' ? 'ss3' : 'none';
        else if (escape === 'csi') escape = code >= 0x40 && code <= 0x7e ? 'none' : 'csi';
        else if (escape === 'ss3') escape = 'none';
        else if (c === '\r' || c === '\n') return finish(chars.join(''));
        else if (c === '\u0003') return finish(undefined);
        else if (c === '\u0004') return finish(chars.length ? chars.join('') : undefined);
        else if (c === '\u007f' || c === '\b') chars.pop();
        else if (c === '\u0015') chars = [];
        else if (c === '\u001b') escape = 'start';
        else if (code >= 0x20) chars.push(c);
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}

const command: Command = secretCommand();
export default command;
