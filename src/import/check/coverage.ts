// Coverage, counted apart from the emitter: every request the inputs hold is emitted (as an
// operation, or as an actor's token_url) or sits in an open question, and the self-check says so
// when the sum does not add up. A second, independent count reads the raw inputs with no reader
// logic (curl commands, `METHOD /path` mentions, OpenAPI methods, collection requests, HAR
// entries): an input that holds a request and yields none is a silent zero, the worst thing an
// importer can do, and fails the import.
import type { EmittedFile } from '../emit/files.js';
import { type InputFormat, obj, type Obj } from '../observed.js';
import { CHECK_CODES, type CheckFinding } from './finding.js';
import { scalarText } from '../../project/index.js';

/** What became of one request found in an input. */
export interface RequestFate {
  /** the input file and the request's key in it */
  file: string;
  key: string;
  fate: 'emitted' | 'token_url' | 'question' | 'skipped';
  /** `resource.operation` of the endpoint it belongs to */
  operation: string;
  reason?: string;
  /** the open question's number */
  question?: number;
}

export interface Coverage {
  found: number;
  emitted: number;
  questions: number;
  notEmitted: RequestFate[];
}

export function coverageOf(fates: RequestFate[]): Coverage {
  return {
    found: fates.length,
    emitted: fates.filter((f) => f.fate === 'emitted' || f.fate === 'token_url').length,
    questions: fates.filter((f) => f.fate === 'question').length,
    notEmitted: fates.filter((f) => f.fate !== 'emitted'),
  };
}

export function coverageLine(c: Coverage): string {
  return `${c.found} requests found in the input, ${c.emitted} emitted, ${c.questions} in open questions`;
}

const HTTP = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const STATIC = /\.(js|mjs|css|png|jpe?g|gif|svg|ico|woff2?|ttf|map|html?)(\?|$)/i;
const CURL = /(?:^|[\s$>`(])curl\s[^\n]*?(?:https?:\/\/|localhost|[A-Z_]{2,}\/|\$\{?[A-Z]|\{\{)/gm;
const ENDPOINT = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(?:\/|[A-Z_]{2,}\/|https?:\/\/|\{\{)/g;

type Scan = (text: string, value: unknown) => number;

/** Requests named in prose and logs: curl commands, or `METHOD /path` mentions (not in links). */
const scanText: Scan = (text) => {
  const curls = text.match(CURL)?.length ?? 0;
  const mentions = text.replace(/\[[^\]\n]*\]\([^)\n]*\)/g, '').match(ENDPOINT)?.length ?? 0;
  return Math.max(curls, mentions);
};

/** One count per input format: a new format (INPUT_FORMATS) does not compile until it has one. */
const SCANS: Record<InputFormat, Scan> = {
  openapi: (_text, value) => {
    let n = 0;
    for (const item of Object.values(obj(obj(value).paths))) for (const k of Object.keys(obj(item))) if (HTTP.includes(k)) n++;
    return n;
  },
  postman: (_text, value) => {
    const doc = obj(obj(value).collection ?? value);
    let n = 0;
    const walk = (list: unknown): void => {
      if (!Array.isArray(list)) return;
      for (const it of list.map(obj)) {
        if (it.request !== undefined) n++;
        walk(it.item);
      }
    };
    walk(doc.item);
    return n;
  },
  har: (_text, value) => {
    const entries = obj(obj(value).log).entries;
    if (!Array.isArray(entries)) return 0;
    return entries.map(obj).filter((e: Obj) => {
      const url = scalarText(obj(e.request).url);
      const type = scalarText(e._resourceType);
      return !STATIC.test(url) && !['image', 'script', 'stylesheet', 'font', 'media', 'document'].includes(type);
    }).length;
  },
  curl: scanText,
  markdown: scanText,
};

/**
 * Requests an input holds, by a count that shares no code with its reader. It errs low (a
 * command split over lines counts once; a link naming an endpoint does not count), since it
 * only has to tell "some" from "none".
 */
export function scanRequests(format: InputFormat, text: string, value: unknown): number {
  return SCANS[format](text, value);
}

/**
 * E_CHECK_COVERAGE: N ≠ M + K, a request said to be emitted that no file holds, or an input
 * whose raw text holds requests (by the independent count) that yields none.
 */
export function checkCoverage(fates: RequestFate[], inputs: Array<{ file: string; found: number; scanned?: number }>, files: EmittedFile[]): CheckFinding[] {
  const out: CheckFinding[] = [];
  const push = (where: string, message: string): void => {
    out.push({ code: CHECK_CODES.coverage, file: 'plan', where, message });
  };
  for (const i of inputs) {
    if (i.scanned && !i.found)
      push(
        i.file,
        `${i.file} holds ${i.scanned} request${i.scanned === 1 ? '' : 's'} (curl commands, endpoints or operations in its text) and the import found none: nothing of it is covered; give --from, or report the input`,
      );
  }
  const emittedOps = new Set<string>();
  for (const f of files) {
    if (f.kind !== 'resource') continue;
    const v = obj(f.doc.toJS());
    for (const name of Object.keys(obj(v.operations))) emittedOps.add(`${String(v.name)}.${name}`);
  }
  for (const f of fates) {
    if (f.fate === 'emitted' && !emittedOps.has(f.operation))
      push(f.key, `${f.file} ${f.key} is counted as emitted as ${f.operation}, which no resource file holds`);
  }
  const c = coverageOf(fates);
  const found = inputs.reduce((n, i) => n + i.found, 0);
  const skipped = fates.filter((f) => f.fate === 'skipped');
  if (found !== c.emitted + c.questions) {
    const list = skipped.map((f) => `${f.file} ${f.key} (${f.reason ?? 'no reason'})`).join('; ');
    push(
      'coverage',
      `${found} requests found in the input, but ${c.emitted} emitted + ${c.questions} in open questions = ${c.emitted + c.questions}${list ? `: not emitted and in no open question: ${list}` : ''}`,
    );
  }
  return out;
}
