// The request URL: `baseUrl` + `path` (docs/format.md#baseurl-host: baseUrl ends at the host) + query_params.
type QueryValue = string | number | boolean | null | undefined | QueryValue[] | Record<string, unknown>;

/**
 * Join base and path with exactly one slash (an absolute http(s) URL in `path` is taken as
 * it is) and append the query. A list value repeats the key (`?tag=a&tag=b`); null and
 * undefined values are left out; an object is sent as JSON text. Keys and values are
 * percent-encoded as encodeURIComponent does (a space is %20, never `+`).
 */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, unknown>): string {
  let url = isAbsoluteUrl(path) ? path : joinPath(baseUrl, path);
  if (!query) return url;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) addParam(parts, key, value as QueryValue);
  if (!parts.length) return url;
  const hashAt = url.indexOf('#');
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  if (hashAt >= 0) url = url.slice(0, hashAt);
  const sep = !url.includes('?') ? '?' : url.endsWith('?') || url.endsWith('&') ? '' : '&';
  return `${url}${sep}${parts.join('&')}${hash}`;
}

function addParam(parts: string[], key: string, value: QueryValue): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const v of value) addParam(parts, key, v);
    return;
  }
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
}

export function isAbsoluteUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

function joinPath(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  return base + (!path ? '' : path.startsWith('/') ? path : `/${path}`);
}
