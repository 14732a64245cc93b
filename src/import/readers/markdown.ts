// Markdown docs: endpoints written as `METHOD /path` (inline code, code blocks, tables,
// headings), and around each one what the prose states: example request and response bodies,
// status codes ("201 Created", "returns 404"), field names ("Required fields: `email`"),
// query parameters, and whether authentication is required. An endpoint's scope runs from
// where it is declared to the next declaration, within its section.
import { HTTP_METHODS, type HttpMethod } from '../../project/index.js';
import { isCredentialName, snake } from '../infer/names.js';
import { emptyApi, quote, type Evidence, type ObservedApi, type ObservedOperation, type SecurityScheme } from '../observed.js';
import { blocksOf, slug, type Block } from './markdown-blocks.js';
import { valueFields } from './openapi-schema.js';
import { readCurl } from './curl.js';
import type { ReaderInput } from './types.js';
import { parseConcreteUrl } from './url.js';
import { parseJson } from '../json.js';

const ENDPOINT = /\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+((?:https?:\/\/[^\s`/]+|[A-Z][A-Z_]+)?\/[^\s`]*)/g;
const STATUS_REASON =
  /\b([1-5]\d\d)\s+(OK|Created|Accepted|No Content|Moved Permanently|Found|Not Modified|Bad Request|Unauthorized|Forbidden|Not Found|Method Not Allowed|Conflict|Gone|Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Service Unavailable)\b/g;
const STATUS_PROSE = /\b(?:returns?|responds? with|response is|status(?: code)?|HTTP)\s+(?:an?\s+|the\s+)?(?:HTTP\s+)?([1-5]\d\d)\b/gi;
const AUTH_HEADER = /^\s*(Authorization|X-Api-Key|Api-Key|X-Auth-Token|X-API-KEY)\s*:\s*(?:(Token|Bearer|Basic|token|bearer|JWT)\s+)?\S+/i;

interface Declared {
  method: HttpMethod;
  raw: string;
  line: number;
  /** index of the block that declares it */
  block: number;
}

export function readMarkdown(input: ReaderInput): ObservedApi {
  const api = emptyApi();
  const blocks = blocksOf(input.text);
  const ev = (line: number, text: string): Evidence => ({ file: input.file, at: `line ${line}`, quote: quote(text) });
  const scheme = authScheme(blocks, ev);
  if (scheme) api.schemes.push(scheme);
  const requiresAuth = /\b(must|need to|needs to)\s+(be\s+)?(authori[sz]ed|authenticate)/i.test(input.text);

  const declared = declarations(blocks);
  const byKey = new Map<string, ObservedOperation>();
  declared.forEach((d, n) => {
    const nextBlock = declared.slice(n + 1).find((x) => x.block !== d.block)?.block ?? blocks.length;
    const scope = blocks.slice(d.block + 1, Math.min(nextBlock, sectionEnd(blocks, d.block)));
    const url = parseConcreteUrl(d.raw.replace(/^[A-Z][A-Z_]+(?=\/)/, ''));
    const path = url.path
      .split('/')
      .map((s) => s.replace(/^<([^>]+)>$/, (_m, n: string) => `{${snake(n) || n}}`).replace(/^:([A-Za-z_]\w*)$/, '{$1}'))
      .join('/');
    const key = `${d.method} ${path}`;
    let op = byKey.get(key);
    if (!op) {
      op = {
        key,
        method: d.method,
        path,
        origin: url.origin,
        summary: headingBefore(blocks, d.block),
        params: [],
        headers: [],
        responses: [],
        order: byKey.size,
        concrete: false,
        sets: [],
        links: [],
        evidence: ev(d.line, `${d.method} ${d.raw}`),
      };
      for (const seg of path.split('/')) {
        const m = /^\{(.+)\}$/.exec(seg);
        if (m) op.params.push({ name: m[1], in: 'path', required: true, evidence: op.evidence });
      }
      byKey.set(key, op);
      api.operations.push(op);
    }
    for (const [k, v] of url.query)
      if (!op.params.some((p) => p.name === k)) op.params.push({ name: k, in: 'query', required: false, example: v || undefined, evidence: ev(d.line, d.raw) });
    readScope(op, scope, ev);
    noteCredentials(op.requestBody?.example, api.credentials);
    const text = scope.map((b) => b.text).join('\n');
    const sec = sectionText(blocks, d.block);
    if (
      /no authentication|authentication (is )?optional|without authentication|public endpoint/i.test(text) ||
      /no authentication required|authentication optional/i.test(sec)
    )
      op.security = [];
    else if (scheme && (/authentication (is )?required|requires? authentication|authenticated/i.test(text) || requiresAuth))
      op.security ??= [{ scheme: scheme.id, evidence: scheme.evidence }];
  });
  // A page that declares no endpoint of its own but shows curl commands is read for them:
  // every command in a code block counts, whatever surrounds it.
  if (!api.operations.length) {
    const fromCurl = readCurl(input);
    if (fromCurl.operations.length) {
      for (const i of fromCurl.inputs) Object.assign(i, { format: 'markdown', version: 'Markdown, curl commands' });
      return fromCurl;
    }
  }
  api.inputs.push({
    file: input.file,
    format: 'markdown',
    version: 'Markdown',
    title: blocks.find((b) => b.kind === 'heading')?.text ?? titleOf(input.text),
    operationCount: api.operations.length,
  });
  api.anchors = anchorsOf(blocks, ev);
  return api;
}

function titleOf(text: string): string | undefined {
  return /^title:\s*["']?([^"'\n]+)/m.exec(text)?.[1]?.trim();
}

function declarations(blocks: Block[]): Declared[] {
  const out: Declared[] = [];
  blocks.forEach((b, i) => {
    const sources =
      b.kind === 'code'
        ? b.text.split('\n').filter((l) => /^\s*(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S/.test(l))
        : b.kind === 'heading'
          ? [b.text, ...b.code]
          : b.code;
    for (const s of sources) {
      for (const m of s
        .split(/<br\s*\/?>/i)
        .join(' ')
        .matchAll(ENDPOINT)) {
        if (!(HTTP_METHODS as readonly string[]).includes(m[1])) continue;
        out.push({ method: m[1] as HttpMethod, raw: m[2].replace(/[).,;]+$/, ''), line: b.line, block: i });
      }
    }
  });
  return out;
}

function sectionEnd(blocks: Block[], from: number): number {
  let level = 7;
  for (let i = from; i >= 0; i--)
    if (blocks[i].kind === 'heading') {
      level = blocks[i].level ?? 7;
      break;
    }
  for (let i = from + 1; i < blocks.length; i++) if (blocks[i].kind === 'heading' && (blocks[i].level ?? 7) <= level) return i;
  return blocks.length;
}

function headingBefore(blocks: Block[], from: number): string | undefined {
  for (let i = from; i >= 0; i--) if (blocks[i].kind === 'heading') return blocks[i].text;
  return undefined;
}

function sectionText(blocks: Block[], from: number): string {
  let start = from;
  while (start > 0 && blocks[start].kind !== 'heading') start--;
  return blocks
    .slice(start, sectionEnd(blocks, from))
    .map((b) => b.text)
    .join('\n');
}

/** Example bodies, statuses, field names and query parameters stated in an endpoint's scope. */
function readScope(op: ObservedOperation, scope: Block[], ev: (line: number, text: string) => Evidence): void {
  let context = '';
  const required = new Set<string>();
  const named: Array<{ name: string; line: number }> = [];
  for (const b of scope) {
    if (b.kind !== 'code') {
      for (const m of b.text.matchAll(STATUS_REASON)) addStatus(op, Number(m[1]), ev(b.line, m[0]));
      for (const m of b.text.matchAll(STATUS_PROSE)) addStatus(op, Number(m[1]), ev(b.line, m[0]));
      const req = /^(Required|Accepted) fields?:/i.exec(b.text);
      if (req)
        for (const c of b.code) {
          named.push({ name: c, line: b.line });
          if (/^required/i.test(req[1])) required.add(c);
        }
      const bullet =
        /^([A-Za-z_][\w]*)(?:=(?:&lt;|<)value(?:&gt;|>))?\s*\n:\s/.exec(b.text) ??
        (b.code[0] && b.text.trimStart().startsWith(`\`${b.code[0]}\``) ? [b.text, b.code[0]] : null);
      if (bullet && /^[A-Za-z_][\w]*$/.test(bullet[1])) named.push({ name: bullet[1], line: b.line });
      for (const c of b.code) {
        const q = /^\?([A-Za-z_]\w*)=(.*)$/.exec(c);
        if (q && !op.params.some((p) => p.name === q[1])) op.params.push({ name: q[1], in: 'query', required: false, example: q[2], evidence: ev(b.line, c) });
      }
      if (b.kind === 'text' && b.text.trim()) context = b.text;
      if (b.kind === 'heading') context = b.text;
      for (const link of b.links) {
        const anchor = /#([\w-]+)$/.exec(link)?.[1];
        if (anchor && /returns?|response/i.test(b.text)) op.responses.push({ fields: [], anchor, evidence: ev(b.line, b.text) });
      }
      continue;
    }
    const json = /^\s*[[{]/.test(b.text) ? parseExample(b.text) : undefined;
    if (json === undefined || typeof json !== 'object') continue;
    const isResponse =
      /respon|returns?|result/i.test(context) || (!/request|payload|body|send/i.test(context) && (op.method === 'GET' || op.requestBody !== undefined));
    // Quoted by position only: an example body may hold a password.
    const e = ev(b.line, isResponse ? 'example response body' : 'example request body');
    if (isResponse) op.responses.push({ fields: valueFields(json, e), example: json, evidence: e });
    else if (!op.requestBody) op.requestBody = { kind: 'json', fields: valueFields(json, e), example: json, evidence: e };
  }
  // Listed fields: request body fields for writes, query parameters for reads.
  const isWrite = op.method !== 'GET' && op.method !== 'DELETE' && op.method !== 'HEAD';
  for (const n of named) {
    if (isWrite) {
      op.requestBody ??= { kind: 'json', fields: [], evidence: ev(n.line, n.name) };
      const f = op.requestBody.fields.filter((x) => x.path[x.path.length - 1] === n.name);
      if (f.length) for (const x of f) x.required ||= required.has(n.name);
      else op.requestBody.fields.push({ path: [n.name], required: required.has(n.name), type: 'scalar', evidence: ev(n.line, n.name) });
    } else if (!op.params.some((p) => p.name === n.name)) op.params.push({ name: n.name, in: 'query', required: false, evidence: ev(n.line, n.name) });
  }
}

/** Credential values in an example body (`"password": "jakejake"`): never to be copied. */
function noteCredentials(v: unknown, into: Set<string>, depth = 0): void {
  if (depth > 12 || typeof v !== 'object' || v === null) return;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string' && isCredentialName(k) && x.length >= 4) into.add(x);
    else noteCredentials(x, into, depth + 1);
  }
}

function addStatus(op: ObservedOperation, status: number, evidence: Evidence): void {
  if (!op.responses.some((r) => r.status === status)) op.responses.push({ status, fields: [], evidence });
}

/** A header the document shows for authentication (`Authorization: Token <Token>`, `X-Api-Key: …`). */
function authScheme(blocks: Block[], ev: (line: number, text: string) => Evidence): SecurityScheme | undefined {
  for (const b of blocks) {
    const lines = b.kind === 'code' ? b.text.split('\n') : [...b.code, ...(/--header\s+"([^"]+)"/.exec(b.text)?.slice(1) ?? [])];
    for (const l of lines) {
      const h = /--header\s+["']([^"']+)["']/.exec(l)?.[1] ?? l;
      const m = AUTH_HEADER.exec(h);
      if (!m) continue;
      const evidence = ev(b.line, `${m[1]}: ${m[2] ?? ''} …`);
      if (m[2] && /^bearer$/i.test(m[2])) return { id: 'bearer', kind: 'bearer', paramName: m[1], prefix: `${m[2]} `, location: 'header', evidence };
      return { id: snake(m[1]) || 'api_key', kind: 'api_key', paramName: m[1], prefix: m[2] ? `${m[2]} ` : undefined, location: 'header', evidence };
    }
  }
  return undefined;
}

/** Heading anchors -> the first JSON example under them (the response shapes another page links to). */
function anchorsOf(blocks: Block[], ev: (line: number, text: string) => Evidence): Record<string, { example: unknown; evidence: Evidence }> {
  const out: Record<string, { example: unknown; evidence: Evidence }> = {};
  blocks.forEach((b, i) => {
    if (b.kind !== 'heading') return;
    const code = blocks.slice(i + 1, sectionEnd(blocks, i)).find((x) => x.kind === 'code' && /^\s*[[{]/.test(x.text));
    const json = code ? parseExample(code.text) : undefined;
    if (code && json !== undefined) out[slug(b.text)] = { example: json, evidence: ev(code.line, `${b.text}: example JSON`) };
  });
  return out;
}

function parseExample(text: string): unknown {
  // Documentation elides with `...`: without those lines and trailing commas, it may be JSON.
  const elided = () =>
    text
      .split('\n')
      .filter((l) => l.trim() !== '...' && l.trim() !== '…')
      .join('\n')
      .replace(/,(\s*[}\]])/g, '$1');
  return parseJson(text) ?? parseJson(elided());
}
