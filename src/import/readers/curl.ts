// curl logs: a file of curl commands (a shell session, a README, an .rst walkthrough), with or
// without their responses. Commands are found line by line, joined across `\` continuations
// and split into words by `shlex` (POSIX shell quoting, no expansion: a log is not run).
// The text after a command, up to the next one, is searched for its response: a status line
// (`< HTTP/1.1 201 Created`, "Response is 401 Unauthorized") and a JSON body.
import { split } from 'shlex';
import { HTTP_METHODS, type HttpMethod } from '../../project/types.js';
import { isCredentialName } from '../infer/names.js';
import { emptyApi, quote, type ObservedApi } from '../observed.js';
import { parseCurlArgs } from './curl-args.js';
import { addOriginServers, authContext, sentOperation, type SentRequest } from './sent.js';
import type { ReaderInput } from './types.js';

interface Command {
  line: number;
  endLine: number;
  words: string[];
  text: string;
}

const START = /(^|[\s$>`(])curl\s+/;

function findCommands(lines: string[]): Command[] {
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = START.exec(lines[i]);
    if (!m) continue;
    let text = lines[i].slice(m.index + m[1].length);
    let j = i;
    while (/\\\s*$/.test(text) && j + 1 < lines.length) {
      j++;
      text = `${text.replace(/\\\s*$/, ' ')}${lines[j].trim()}`;
    }
    let words: string[];
    try {
      words = split(text.replace(/`+\s*$/, ''));
    } catch {
      continue; // unbalanced quotes: prose that mentions curl
    }
    const end = words.findIndex((w) => w === '|' || w === '&&' || w === ';' || w === '>');
    if (end > 0) words = words.slice(0, end);
    if (words[0] !== 'curl' || !words.slice(1).some(looksLikeUrl)) continue;
    out.push({ line: i + 1, endLine: j + 1, words: words.slice(1), text });
    i = j;
  }
  return out;
}

export function looksLikeUrl(w: string): boolean {
  return /^(https?:\/\/|[A-Za-z0-9.-]+:\d+\/|localhost[:/]|[A-Z_]{2,}\/)/.test(w);
}

const STATUS_LINE = /^\s*<\s*HTTP\/[\d.]+\s+(\d{3})\b/;
const STATUS_PROSE = /\b(?:[Rr]esponse is|[Rr]eturns?|[Ss]tatus(?: code)?)\s+(?:an?\s+)?(?:HTTP\s+)?([1-5]\d\d)\b/;

/** The response shown after a command: the first JSON value and a stated status. */
function responseAfter(lines: string[], from: number, to: number): { status?: number; text?: string; line?: number } {
  let status: number | undefined;
  let text: string | undefined;
  let line: number | undefined;
  for (let i = from; i < to && i < from + 60; i++) {
    const l = lines[i];
    const s = STATUS_LINE.exec(l) ?? (i < from + 8 ? STATUS_PROSE.exec(l) : null);
    if (s && status === undefined) status = Number(s[1]);
    if (text === undefined) {
      const t = l.replace(/^\s*<\s?/, '').trim();
      if (t.startsWith('{') || t.startsWith('[')) {
        const json = jsonFrom(lines, i, to);
        if (json) {
          text = json.text;
          line = i + 1;
          i = json.end;
        }
      }
    }
  }
  return { status, text, line };
}

function jsonFrom(lines: string[], start: number, to: number): { text: string; end: number } | undefined {
  let acc = '';
  for (let i = start; i < to && i < start + 200; i++) {
    acc += `${lines[i].replace(/^\s*<\s?/, '')}\n`;
    try {
      JSON.parse(acc);
      return { text: acc.trim(), end: i };
    } catch {
      // keep reading
    }
  }
  return undefined;
}

export function readCurl(input: ReaderInput): ObservedApi {
  const api = emptyApi();
  const ctx = authContext(api);
  const lines = input.text.split(/\r?\n/);
  const commands = findCommands(lines);
  commands.forEach((cmd, n) => {
    const parsed = parseCurlArgs(cmd.words);
    if (!parsed.url) return;
    const next = commands[n + 1]?.line ?? lines.length + 1;
    const res = responseAfter(lines, cmd.endLine, next - 1);
    const method = (HTTP_METHODS as readonly string[]).includes(parsed.method) ? (parsed.method as HttpMethod) : 'GET';
    const evidence = { file: input.file, at: `line ${cmd.line}`, quote: quote(redactLine(cmd.text)) };
    const req: SentRequest = {
      method,
      url: parsed.url,
      headers: parsed.headers,
      body: parsed.data !== undefined ? { text: parsed.data, params: parsed.form } : parsed.form ? { text: '', params: parsed.form, mimeType: 'multipart/form-data' } : undefined,
      user: parsed.user,
      response: res.status !== undefined || res.text !== undefined ? { status: res.status, text: res.text, evidence: { file: input.file, at: `line ${res.line ?? cmd.endLine + 1}`, quote: '' } } : undefined,
      order: api.operations.length,
      evidence,
    };
    api.operations.push(sentOperation(req, ctx));
  });
  api.schemes.push(...ctx.schemes.values());
  addOriginServers(api, input.file, 'curl commands');
  if (!commands.length) api.notes.push({ text: `${input.file}: no curl command with a URL found`, evidence: { file: input.file, at: 'line 1', quote: '' } });
  api.inputs.push({ file: input.file, format: 'curl', version: 'curl log', title: titleOf(lines), operationCount: api.operations.length });
  return api;
}

/** Evidence quotes the command, never its credentials. */
function redactLine(text: string): string {
  return text
    .replace(/(:\/\/[^:@/\s]+:)[^@/\s]+@/g, '$1***@')
    .replace(/(-u\s+|--user\s+)(['"]?)([^:\s'"]+):[^\s'"]+/g, '$1$2$3:***')
    .replace(/([A-Za-z][\w-]*)(\s*:\s*)((?:\w+\s+)?)([^"'\s]+)/g, (m, name: string, colon: string, word: string) =>
      isCredentialName(name) || /^(authorization|cookie)$/i.test(name) ? `${name}${colon}${word}***` : m,
    );
}

function titleOf(lines: string[]): string | undefined {
  const heading = lines.find((l) => /^#\s+\S/.test(l)) ?? lines.find((l, i) => /^=+$/.test(lines[i + 1] ?? '') && l.trim().length > 0 && !/^=+$/.test(l));
  return heading?.replace(/^#\s+/, '').trim();
}
