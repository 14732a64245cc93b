// URL helpers shared by the readers: split a server URL at the host (docs/format.md#baseurl-host: baseUrl stops
// at the host; a path prefix belongs in each operation path).

export interface SplitUrl {
  /** `scheme://host[:port]`, or undefined for a relative server URL (`/api`) */
  origin?: string;
  /** the path part without a trailing slash, '' when none */
  prefix: string;
}

export function splitServerUrl(url: string): SplitUrl {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)([^?#]*)/i.exec(url);
  if (m) return { origin: stripUserinfo(m[1]), prefix: m[2].replace(/\/+$/, '') };
  return { prefix: url.replace(/[?#].*$/, '').replace(/\/+$/, '') };
}

/** `http://user:pass@host` -> `http://host` (credentials never travel into the output). */
function stripUserinfo(origin: string): string {
  return origin.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}

export interface ConcreteUrl {
  origin?: string;
  path: string;
  query: Array<[string, string]>;
  username?: string;
  password?: string;
}

/**
 * A URL as sent (HAR, curl, Postman raw): origin, path, query pairs and any userinfo.
 * Postman `{{var}}` hosts are kept as the origin text.
 */
export function parseConcreteUrl(raw: string): ConcreteUrl {
  let rest = raw.trim();
  let origin: string | undefined;
  let username: string | undefined;
  let password: string | undefined;
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(rest) ?? /^()(\{\{[^}]+\}\})/.exec(rest);
  if (m) {
    let host = m[2];
    const at = host.lastIndexOf('@');
    if (at >= 0) {
      const info = host.slice(0, at);
      host = host.slice(at + 1);
      const colon = info.indexOf(':');
      username = decodeSafe(colon >= 0 ? info.slice(0, colon) : info);
      if (colon >= 0) password = decodeSafe(info.slice(colon + 1));
    }
    origin = `${m[1]}${host}`;
    rest = rest.slice(m[0].length);
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const path = q >= 0 ? rest.slice(0, q) : rest;
  const query: Array<[string, string]> = [];
  if (q >= 0) {
    for (const part of rest.slice(q + 1).split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      query.push(eq >= 0 ? [decodeSafe(part.slice(0, eq)), decodeSafe(part.slice(eq + 1))] : [decodeSafe(part), '']);
    }
  }
  return { origin, path: path.startsWith('/') ? path : `/${path}`, query, username, password };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
