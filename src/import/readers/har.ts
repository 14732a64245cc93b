// HAR reader (Chrome DevTools, Optic capture, …): requests and responses in capture order.
// Pages, scripts, styles and images are not API operations and are left out (noted).
import { HTTP_METHODS, type HttpMethod, scalarText } from '../../project/index.js';
import { IMPORT_CODES, importError } from '../errors.js';
import { emptyApi, obj, quote, type ObservedApi } from '../observed.js';
import { addOriginServers, authContext, sentOperation } from './sent.js';
import type { ReaderInput } from './types.js';

const NOT_API = /^(text\/html|text\/css|(application|text)\/(x-)?javascript|image\/|font\/|application\/font)/i;

function text(content: Record<string, unknown>): string | undefined {
  if (typeof content.text !== 'string') return undefined;
  if (content.encoding !== 'base64') return content.text;
  try {
    return Buffer.from(content.text, 'base64').toString('utf8');
  } catch {
    return content.text;
  }
}

export function readHar(input: ReaderInput): ObservedApi {
  const log = obj(obj(input.json).log);
  if (!Array.isArray(log.entries)) throw importError(IMPORT_CODES.parse, `${input.file}: not a HAR file (no log.entries)`, input.file);
  const api = emptyApi();
  const ctx = authContext(api);
  const skipped: string[] = [];
  let order = 0;
  log.entries.forEach((raw, i) => {
    const entry = obj(raw);
    const req = obj(entry.request);
    const res = obj(entry.response);
    const content = obj(res.content);
    const method = scalarText(req.method, 'GET').toUpperCase();
    const url = scalarText(req.url);
    if (NOT_API.test(scalarText(content.mimeType)) || /\.(js|css|png|jpe?g|gif|svg|ico|woff2?)(\?|$)/i.test(url)) {
      skipped.push(`${method} ${url}`);
      return;
    }
    if (!(HTTP_METHODS as readonly string[]).includes(method)) return;
    const evidence = { file: input.file, at: `#/log/entries/${i}`, quote: quote(`${method} ${url} -> ${scalarText(res.status)}`) };
    const post = obj(req.postData);
    const headers = (Array.isArray(req.headers) ? req.headers.map(obj) : []).map((h) => [String(h.name), scalarText(h.value)] as [string, string]);
    const params = Array.isArray(post.params)
      ? post.params
          .map(obj)
          .filter((p) => p.fileName === undefined)
          .map((p) => [String(p.name), scalarText(p.value)] as [string, string])
      : undefined;
    const bodyText = text(post);
    api.operations.push(
      sentOperation(
        {
          method: method as HttpMethod,
          url,
          headers,
          body:
            bodyText !== undefined || params?.length
              ? { text: bodyText ?? '', mimeType: typeof post.mimeType === 'string' ? post.mimeType : undefined, params }
              : undefined,
          response: { status: typeof res.status === 'number' && res.status > 0 ? res.status : undefined, text: text(content) },
          order: order++,
          evidence,
        },
        ctx,
      ),
    );
  });
  api.schemes.push(...ctx.schemes.values());
  addOriginServers(api, input.file, '#/log/entries');
  if (skipped.length) {
    api.notes.push({
      text: `${skipped.length} captured requests are not API operations (pages, scripts, styles, images) and were left out: ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', …' : ''}`,
      evidence: { file: input.file, at: '#/log/entries', quote: skipped[0] },
    });
  }
  const creator = log.creator;
  const title = typeof creator === 'string' ? creator : typeof obj(creator).name === 'string' ? String(obj(creator).name) : undefined;
  api.inputs.push({
    file: input.file,
    format: 'har',
    version: `HAR ${scalarText(log.version)}`.trim(),
    title: title ? `capture (${title})` : undefined,
    operationCount: api.operations.length,
  });
  return api;
}
