// The curl options that shape a request, from a command's words (after `curl`).
// Output options (-v, -i, -s, -o, …) are ignored; unknown ones are skipped with their value
// when they take one.

export interface CurlRequest {
  method: string;
  url?: string;
  headers: Array<[string, string]>;
  data?: string;
  form?: Array<[string, string]>;
  user?: string;
}

/** Options that take a value and do not shape the request. */
const VALUE_OPTIONS = new Set([
  '-o',
  '--output',
  '-w',
  '--write-out',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-x',
  '--proxy',
  '--cacert',
  '--cert',
  '--key',
  '-c',
  '--cookie-jar',
  '--retry',
  '-r',
  '--range',
  '--resolve',
]);
const DATA = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode', '--json']);

export function parseCurlArgs(words: string[]): CurlRequest {
  const out: CurlRequest = { method: '', headers: [] };
  let getWithData = false;
  const data: string[] = [];
  for (let i = 0; i < words.length; i++) {
    let w = words[i];
    let value: string | undefined;
    // `-XPUT`, `-vX PUT`, `--request=PUT`
    const eq = /^(--[a-z-]+)=(.*)$/.exec(w);
    if (eq) [, w, value] = eq;
    const combined = /^-([a-zA-Z]*)([XHdu])(.*)$/.exec(w);
    if (!eq && combined && !w.startsWith('--')) {
      w = `-${combined[2]}`;
      if (combined[3]) value = combined[3];
    }
    const take = (): string => value ?? words[++i] ?? '';
    switch (w) {
      case '-X':
      case '--request':
        out.method = take().toUpperCase();
        break;
      case '-H':
      case '--header': {
        const h = take();
        const c = h.indexOf(':');
        if (c > 0) out.headers.push([h.slice(0, c).trim(), h.slice(c + 1).trim()]);
        break;
      }
      case '-u':
      case '--user':
        out.user = take();
        break;
      case '-F':
      case '--form': {
        const f = take();
        const e = f.indexOf('=');
        if (e > 0) (out.form ??= []).push([f.slice(0, e), f.slice(e + 1)]);
        break;
      }
      case '--url':
        out.url = take();
        break;
      case '-G':
      case '--get':
        getWithData = true;
        break;
      case '-I':
      case '--head':
        out.method ||= 'HEAD';
        break;
      case '-b':
      case '--cookie':
        out.headers.push(['Cookie', take()]);
        break;
      default:
        if (DATA.has(w)) {
          data.push(take());
          if (w === '--json') out.headers.push(['Content-Type', 'application/json']);
        } else if (VALUE_OPTIONS.has(w)) take();
        else if (!w.startsWith('-') && out.url === undefined) out.url = w;
    }
  }
  if (data.length) {
    if (getWithData) out.url = `${out.url ?? ''}${out.url?.includes('?') ? '&' : '?'}${data.join('&')}`;
    else out.data = data.join('&');
  }
  out.method ||= out.data !== undefined || out.form ? 'POST' : 'GET';
  return out;
}
