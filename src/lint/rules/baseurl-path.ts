// W_BASEURL_PATH (docs/format.md#baseurl-host, #versions): `baseUrl` ends at the host; a prefix such as `/api/v1`
// belongs in each operation path.
import type { Finding, Rule } from '../rule.js';

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * What follows the host, for the message: the path, and "?…" for a query or fragment (never
 * printed: it may hold a key). Undefined when nothing follows or the value is not a plain URL.
 */
function pathAfterHost(value: string): string | undefined {
  if (value.includes('{{') || !ABSOLUTE_URL.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const rest = `${url.pathname === '/' ? '' : url.pathname}${url.search || url.hash ? '?…' : ''}`;
  return rest || undefined;
}

const baseUrlPath: Rule = {
  id: 'baseurl-path',
  codes: ['W_BASEURL_PATH'],
  *check({ project }): Generator<Finding> {
    for (const env of project.environments.values()) {
      const value = env.variables.baseUrl;
      if (typeof value !== 'string') continue;
      const rest = pathAfterHost(value.trim());
      if (rest === undefined) continue;
      yield {
        code: 'W_BASEURL_PATH',
        message: `baseUrl of environment "${env.id}" goes on past the host ("${rest}"): end it at the host and start each operation path with the prefix`,
        file: env.file,
        yamlPath: [...env.yamlPath, 'variables', 'baseUrl'],
      };
    }
  },
};

export default baseUrlPath;
