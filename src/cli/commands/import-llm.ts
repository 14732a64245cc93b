// `flow import --llm`: the deterministic readers' observed model plus the inputs go to an
// OpenAI-compatible chat endpoint; the answer goes through the gates (src/import/llm). Output
// and wiring only: the procedure is in src/import/llm, the HTTP client in src/llm.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  type AskModel,
  type EmittedFile,
  type EmittedKind,
  IMPORT_CODES,
  importError,
  importInto,
  importWithModel,
  type InputFormat,
  mergeApis,
  newDoc,
  readInput,
} from '../../import/index.js';
import { chat } from '../../llm/index.js';
import { createSecretStore } from '../../runtime/index.js';
import { GLOBAL_SERVICE } from './secret.js';
import { FlowError, hasCode } from '../../errors.js';
import { parseDocument } from 'yaml';
import { writeNewProject, YAML_TAGS } from '../../project/index.js';
import { EXIT, type CliIO } from '../io.js';
import { writeNamedFile } from '../write-failure.js';

export interface LlmValues {
  out?: string;
  into?: string;
  plan?: string;
  'llm-url'?: string;
  'llm-model'?: string;
  'llm-rounds'?: string;
  'llm-timeout'?: string;
  'keep-failed'?: boolean;
}

/** The model's API key as a global secret: `flow secret set LLM_API_KEY --global`. */
const LLM_KEY = 'LLM_API_KEY';

export async function runModelImport(inputs: string[], values: LlmValues, from: InputFormat | undefined, io: CliIO): Promise<number> {
  const url = values['llm-url'] ?? io.env.FLOW_LLM_URL;
  if (!url) return usage(io, '--llm needs the endpoint: --llm-url <base URL> (e.g. http://127.0.0.1:11434/v1) or FLOW_LLM_URL');
  const model = values['llm-model'] ?? io.env.FLOW_LLM_MODEL;
  if (!model) return usage(io, '--llm needs a model: --llm-model <name> or FLOW_LLM_MODEL');
  const rounds = values['llm-rounds'] === undefined ? 2 : Number(values['llm-rounds']);
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > 10) return usage(io, `--llm-rounds takes a whole number from 0 to 10, not "${values['llm-rounds']}"`);
  const idleSeconds = values['llm-timeout'] === undefined ? 60 : Number(values['llm-timeout']);
  if (!(idleSeconds > 0 && idleSeconds <= 3600)) return usage(io, `--llm-timeout takes seconds from 1 to 3600, not "${values['llm-timeout']}"`);

  const apis = [];
  const texts = [];
  for (const file of inputs) {
    const api = await readInput(file, { from, cwd: io.cwd });
    apis.push(api);
    texts.push({ file: api.inputs[0]?.file ?? file, text: await readFile(path.resolve(io.cwd, file), 'utf8') });
  }
  const api = mergeApis(apis);
  const apiKey = await apiKeyOf(io);
  let shown = false;
  const progress = (message: string): void => {
    if (!io.isTTY) return io.stderr(`flow import: ${message}\n`);
    io.stderr(`\r\x1b[Kflow import: ${message}`);
    shown = true;
  };
  const ask: AskModel = (messages) =>
    chat(messages, {
      url,
      model,
      apiKey,
      idleMs: idleSeconds * 1000,
      progress: io.isTTY ? (n) => progress(`the model is answering: ${n} characters`) : undefined,
    });

  let result;
  try {
    result = await importWithModel(texts, api, { ask, rounds, progress });
  } catch (err) {
    // The model's answer held no file: its failure, not the user's (exit 1, like a failed gate).
    if (!(hasCode(err) && err.code === IMPORT_CODES.answer)) throw err;
    io.stderr(`${shown ? '\r\x1b[K' : ''}flow import: ${err.code} ${err.message}; nothing written\n`);
    return EXIT.failed;
  }
  if (shown) io.stderr('\r\x1b[K');

  for (const r of result.removed) io.stderr(`removed: ${r.file}${r.where ? ` ${r.where}` : ''}: ${r.reason}\n`);
  for (const p of result.problems) io.stderr(`check: ${p}\n`);
  const passed = result.problems.length === 0;
  const summary = `${result.files.length} files from the model, ${result.removed.length} items removed as ungrounded, ${result.rounds} edit rounds`;
  if (!passed && !values['keep-failed']) {
    io.stderr(`flow import: ${summary}; the gates FAILED (${result.problems.length} problems): nothing written (--keep-failed writes it anyway)\n`);
    if (values.plan) await writeNamedFile('import', io, values.plan, result.plan);
    return EXIT.failed;
  }
  const dir = path.resolve(io.cwd, (values.out ?? values.into)!);
  const files = result.files.map(emitted);
  if (values.into) {
    const report = await importInto(files, dir);
    io.stderr(`flow import: into ${dir}: ${report.created.length} files created, ${report.edited.length} edited, ${report.added.length} additions\n`);
  } else {
    await writeTexts(result.files, dir);
    io.stderr(`flow import: wrote ${result.files.length} files to ${dir}\n`);
  }
  if (values.plan) {
    const failed = await writeNamedFile('import', io, values.plan, result.plan);
    if (failed !== undefined) return failed;
  } else io.stdout(result.plan);
  io.stderr(`flow import: ${summary}; gates ${passed ? 'passed' : `FAILED (${result.problems.length} problems), written because of --keep-failed`}\n`);
  return passed ? EXIT.ok : EXIT.failed;
}

/** FLOW_LLM_API_KEY, else the global secret (FLOW_SECRET_LLM_API_KEY, the keychain); none is fine for a local server. */
async function apiKeyOf(io: CliIO): Promise<string | undefined> {
  if (io.env.FLOW_LLM_API_KEY) return io.env.FLOW_LLM_API_KEY;
  const store = createSecretStore({ projectName: '', service: GLOBAL_SERVICE, env: io.env });
  try {
    return await store.get(LLM_KEY);
  } catch {
    return undefined; // not set, or no keychain here: the endpoint says whether it wanted a key
  }
}

/** The model's files as written, byte for byte: a new project gets exactly what passed the gates. */
async function writeTexts(files: Array<{ path: string; text: string }>, dir: string): Promise<void> {
  if ((await readdir(dir).catch(() => [])).length) {
    throw importError(IMPORT_CODES.outExists, `${dir} is not empty: import into an existing project with --into, or choose an empty --out directory`, dir);
  }
  writeNewProject(
    dir,
    files.map((f) => ({ path: f.path, text: f.text.endsWith('\n') ? f.text : `${f.text}\n` })),
  );
}

function emitted(f: { path: string; text: string }): EmittedFile {
  const kind: EmittedKind =
    f.path === 'flow.yaml' ? 'root' : f.path.startsWith('environments/') ? 'environment' : f.path.startsWith('actors/') ? 'actor' : 'resource';
  const doc = parseDocument(f.text, { customTags: YAML_TAGS });
  if (doc.errors.length) throw new FlowError(IMPORT_CODES.answer, `${f.path} does not parse as YAML`);
  const value = doc.toJS() as { name?: unknown } | null;
  return { path: f.path, kind, id: typeof value?.name === 'string' ? value.name : undefined, doc: doc.contents ? doc : newDoc(value) };
}

function usage(io: CliIO, message: string): number {
  io.stderr(`flow import: ${message}\n`);
  return EXIT.usage;
}
