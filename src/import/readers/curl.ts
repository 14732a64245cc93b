// curl logs: a file of curl commands (a shell session, a README, an .rst walkthrough), with or
// without their responses. Commands are found line by line, joined across `\` continuations
// and split into words by `shlex` (POSIX shell quoting, no expansion: a log is not run).
// The text after a command, up to the next one, is searched for its response: a status line
// (`< HTTP/1.1 201 Created`, "Response is 401 Unauthorized") and a JSON body.
import { split } from 'shlex';
import { HTTP_METHODS, type HttpMethod } from '../../project/index.js';
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
    words = words.map(placeholders);
    if (words[0] !== 'curl' || !words.slice(1).some(looksLikeUrl)) continue;
    out.push({ line: i + 1, endLine: j + 1, words: words.slice(1), text });
    i = j;
  }
  return out;
}

/**
 * A documentation placeholder is a variable, never a literal value: `$TOKEN`, `${TOKEN}`,
 * `<access_token>`, `your_client_id_here`, `YOUR_API_KEY` become `{{TOKEN}}`, `{{access_token}}`,
 * `{{client_id}}`, `{{API_KEY}}`, which the importer treats as it treats a collection's
 * variables: a secret when the name is a credential's, else a variable supplied on each run.
 */
export function placeholders(word: string): string {
  return word
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Z][A-Z0-9_]*)\b/g, (_m, a: string | undefined, b: string | undefined) => `{{${a ?? b}}}`)
    .replace(/<([A-Za-z][A-Za-z0-9_ -]*[A-Za-z0-9])>/g, (m, name: string) => (word.includes('</') ? m : `{{${name.trim().replace(/[\s-]+/g, '_')}}}`)) // XML/HTML bodies keep their tags
    .replace(/\b[Yy][Oo][Uu][Rr][_-]([A-Za-z0-9_-]+?)(?:[_-](?:here|HERE))?\b/g, (_m, name: string) => `{{${name.replace(/-/g, '_')}}}`);
}

function looksLikeUrl(w: string): boolean {
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
      body:
        parsed.data !== undefined
          ? { text: parsed.data, params: parsed.form }
          : parsed.form
            ? { text: '', params: parsed.form, mimeType: 'multipart/form-data' }
            : undefined,
      user: parsed.user,
      response:
        res.status !== undefined || res.text !== undefined
          ? { status: res.status, text: res.text, evidence: { file: input.file, at: `line ${res.line ?? cmd.endLine + 1}`, quote: '' } }
          : undefined,
      order: api.operations.length,
      evidence,
    };
    const op = sentOperation(req, ctx);
    api.operations.push(op);
    // `-d @file` sends a file the log does not show: what the request sends is unknown.
    const file = [parsed.data ?? '', ...(parsed.form ?? []).map(([, v]) => v)].find((d) => d.startsWith('@'))?.slice(1);
    if (file !== undefined) {
      api.notes.push({
        text: `${op.key} sends the file ${file || '(unnamed)'} as its body, which the input does not show: what should a test send?`,
        evidence,
        blocks: [op.key],
      });
    }
  });
  api.schemes.push(...ctx.schemes.values());
  addOriginServers(api, input.file, 'curl commands');
  if (!commands.length) api.notes.push({ text: `${input.file}: no curl command with a URL found`, evidence: { file: input.file, at: 'line 1', quote: '' } });
  api.inputs.push({ file: input.file, format: 'curl', version: 'curl log', title: titleOf(lines, input.file), operationCount: api.operations.length });
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

/**
 * The title of a page: its first Markdown heading outside code (a `# comment` of a shell log or
 * a code block is no title), or an underlined reStructuredText heading; else none.
 */
function titleOf(lines: string[], file: string): string | undefined {
  const markdown = /\.(md|markdown|mdx)$/i.test(file);
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    if (fence) continue;
    if (markdown && /^#{1,2}\s+\S/.test(l)) return l.replace(/^#+\s+/, '').trim();
    if (!markdown && /^(=+|-+|~+)$/.test(lines[i + 1] ?? '') && /^[A-Za-z]/.test(l) && (lines[i + 1] ?? '').length >= l.trim().length) return l.trim();
  }
  return undefined;
}
