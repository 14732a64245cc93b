// The request URL: `baseUrl` + `path` (spec 2.3: baseUrl ends at the host) + query_params.
export type QueryValue = string | number | boolean | null | undefined | QueryValue[] | Record<string, unknown>;

/**
 * Join base and path with exactly one slash and append the query. A list value repeats
 * the key (`?tag=a&tag=b`); null and undefined values are left out; an object is sent as
 * JSON text. Keys and values are percent-encoded (a space is %20).
 */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const rel = !path ? '' : path.startsWith('/') ? path : `/${path}`;
  let url = base + rel;
  if (!query) return url;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) addParam(parts, key, value);
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
