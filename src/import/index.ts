// The importer's library API: inputs -> observed API -> draft -> plan + files, checked.
import path from 'node:path';
import { FlowError } from '../errors.js';
import { readRegularText } from '../limits/index.js';
import { detectFormat, parseJson } from './detect.js';
import { emitFiles, type EmittedFile } from './emit/files.js';
import { renderPlan } from './emit/plan.js';
import { IMPORT_CODES, importError } from './errors.js';
import { infer } from './infer/index.js';
import type { Draft } from './infer/draft.js';
import { FORMAT_NAMES, INPUT_FORMATS, mergeApis, type InputFormat, type ObservedApi } from './observed.js';
import { READERS } from './readers/index.js';
import { MAX_INPUT_BYTES } from './readers/types.js';
import { valueFields } from './readers/openapi-schema.js';
import { checkEmitted, type CheckFinding } from './check/index.js';
import { scanRequests } from './check/coverage.js';
import { parseDescription } from './readers/openapi-refs.js';
import type { KeptDescription } from './emit/description.js';

export interface ImportOptions {
  /** force the format of every input (else detected from the content) */
  from?: InputFormat;
  /** project name (default: the first input's title) */
  name?: string;
  /** environment id (default `default`) */
  environment?: string;
  /** progress messages for large inputs */
  progress?: (message: string) => void;
  /** file names in evidence are relative to this directory (default: cwd) */
  cwd?: string;
}

export interface ImportResult {
  api: ObservedApi;
  draft: Draft;
  files: EmittedFile[];
  plan: string;
  /** self-check (docs/format.md#self-check), grounding and leak findings; empty when the import is sound */
  findings: CheckFinding[];
  /** the one OpenAPI input, to keep in the project (emit/description.ts); none when there are several */
  description?: KeptDescription;
}

export async function readInput(file: string, options: ImportOptions = {}): Promise<ObservedApi> {
  return (await readInputText(file, options)).api;
}

/** The input read, and its text when it is an OpenAPI description. */
async function readInputText(file: string, options: ImportOptions): Promise<{ api: ObservedApi; description?: KeptDescription }> {
  const cwd = options.cwd ?? process.cwd();
  const abs = path.resolve(cwd, file);
  const text = await readRegularText(abs, { maxBytes: MAX_INPUT_BYTES, code: IMPORT_CODES.input, shown: file });
  let json = await inInput(file, () => parseJson(text));
  const format = options.from ?? detectFormat(text, json);
  if (!format)
    throw importError(IMPORT_CODES.format, `${file}: cannot tell its format (${INPUT_FORMATS.map((f) => FORMAT_NAMES[f]).join(', ')}); give --from`, file);
  if (format === 'openapi' && json === undefined) {
    try {
      json = parseDescription(text); // parsed once: the reader and the coverage count share it
    } catch (err) {
      throw importError(IMPORT_CODES.parse, `${file}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`, file, err);
    }
  }
  const api = await inInput(file, () => READERS[format]({ file: displayName(file, cwd), path: abs, text, json }));
  const scanned = scanRequests(format, text, json);
  for (const i of api.inputs) i.scanned = scanned;
  return { api, ...(format === 'openapi' ? { description: { input: file, text } } : {}) };
}

/** `work()`, with a parse error from deep inside a reader (a body nested too deep) naming the input. */
async function inInput<T>(file: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FlowError && err.code === IMPORT_CODES.parse && !err.details?.file) throw importError(err.code, `${file}: ${err.message}`, file);
    throw err;
  }
}

/**
 * The input as evidence names it: the path the user gave, relative to the working directory,
 * or its base name when that path leaves it. Never an absolute path of this machine: the
 * project must read the same wherever it is checked out.
 */
function displayName(file: string, cwd: string): string {
  const abs = path.resolve(cwd, file);
  const rel = path.relative(cwd, abs).split(path.sep).join('/');
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.basename(abs);
}

export async function importApi(inputs: string[], options: ImportOptions = {}): Promise<ImportResult> {
  const apis: ObservedApi[] = [];
  const descriptions: KeptDescription[] = [];
  for (const file of inputs) {
    const { api, description } = await readInputText(file, options);
    options.progress?.(`read ${file}: ${api.operations.length} operations`);
    apis.push(api);
    if (description) descriptions.push(description);
  }
  const api = mergeApis(apis);
  resolveAnchors(api);
  const draft = infer(api, {
    name: options.name,
    environment: options.environment,
    progress: options.progress ? (done, total) => options.progress!(`inferred ${done}/${total} operations`) : undefined,
  });
  const files = emitFiles(draft);
  const plan = renderPlan(draft);
  const findings = checkEmitted(files, { api, plan, requests: draft.requests });
  return { api, draft, files, plan, findings, ...(descriptions.length === 1 ? { description: descriptions[0] } : {}) };
}

/** Markdown responses described under a heading anchor (often on another page) get that example. */
function resolveAnchors(api: ObservedApi): void {
  if (!api.anchors) return;
  for (const op of api.operations) {
    for (const r of op.responses) {
      const target = r.anchor ? api.anchors[r.anchor] : undefined;
      if (!target || r.example !== undefined) continue;
      r.example = target.example;
      r.fields = valueFields(target.example, target.evidence);
      r.evidence = { ...r.evidence, quote: `${r.evidence.quote} -> ${target.evidence.file} ${target.evidence.at}`.slice(0, 160) };
    }
  }
}

export type { CheckFinding } from './check/index.js';
export type { InputFormat, ObservedApi } from './observed.js';
export { planFindings, readAnswer } from './check/answer.js';
export { coverageLine, coverageOf } from './check/coverage.js';
export { descriptionFile, keepDescription, keptName } from './emit/description.js';
export { checkView, formatFinding, viewOfDirectory, withScratchProject } from './check/index.js';
export { newDoc } from './emit/files.js';
export type { EmittedFile, EmittedKind } from './emit/files.js';
export { importInto } from './emit/into.js';
export { writeProject } from './emit/write.js';
export { IMPORT_CODES, importError } from './errors.js';
export { importWithModel } from './llm/session.js';
export type { AskModel } from './llm/session.js';
export { INPUT_FORMATS, mergeApis } from './observed.js';
