// Reading the path roots of docs/format.md#extraction, which extract and assert share. Paths are
// parsed in src/graph (lint checks them too); read here, from a response.
import type * as JsonPathPlus from 'jsonpath-plus';
import { FlowError } from '../../errors.js';
import { parsePath, type PathRef } from '../../graph/index.js';
import { lazy } from '../../project/index.js';
import type { FlowResponse } from '../../http/index.js';

// Plain paths (`$.data.id`) are walked without it: most runs never load it.
const jsonPathPlus = lazy<typeof JsonPathPlus>('jsonpath-plus');

export { checkPath, isFanOutPath, parsePath } from '../../graph/index.js';

export interface PathResult {
  found: boolean;
  values: unknown[];
}

type Reader = (ref: PathRef, res: FlowResponse) => PathResult;

const NOT_FOUND: PathResult = Object.freeze({ found: false, values: [] });

const READERS: Record<PathRef['root'], Reader> = {
  status_code: (_ref, res) => ({ found: true, values: [res.status] }),
  body: (_ref, res) => ({ found: true, values: [res.text()] }),
  headers: (ref, res) => {
    const v = res.headers[(ref as { name: string }).name];
    return v === undefined ? NOT_FOUND : { found: true, values: Array.isArray(v) ? v : [v] };
  },
  cookies: (ref, res) => {
    const name = (ref as { name: string }).name;
    return Object.hasOwn(res.cookies, name) ? { found: true, values: [res.cookies[name]] } : NOT_FOUND;
  },
  data: (ref, res) => readJson(ref as Extract<PathRef, { root: 'data' }>, res.json()),
};

/**
 * Read a path from a response. Throws FlowError: E_PATH_INVALID for a bad path,
 * E_NOT_JSON / E_BODY_TRUNCATED when a `$.data` path meets a body that is not JSON.
 */
export function readPath(path: string, res: FlowResponse): PathResult {
  const ref = parsePath(path);
  if (typeof ref === 'string') throw new FlowError('E_PATH_INVALID', ref, { details: { path } });
  return READERS[ref.root](ref, res);
}

function readJson(ref: Extract<PathRef, { root: 'data' }>, json: unknown): PathResult {
  if (ref.simple) return walk(json, ref.simple);
  let values: unknown[] | undefined;
  try {
    // eval 'safe': filters like [?(@.status=='active')] work, without running arbitrary code
    values = jsonPathPlus().JSONPath<unknown[] | undefined>({ path: ref.jsonPath, json: json as object, wrap: true, eval: 'safe' });
  } catch (err) {
    throw new FlowError('E_PATH_INVALID', `"${ref.path}" is not a valid JSONPath: ${(err as Error).message}`, { details: { path: ref.path }, cause: err });
  }
  return values && values.length ? { found: true, values } : NOT_FOUND;
}

function walk(json: unknown, segments: Array<string | number>): PathResult {
  let cur: unknown = json;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return NOT_FOUND;
    if (Array.isArray(cur)) {
      if (seg === 'length') {
        cur = cur.length; // as JSONPath does: `$.data.items.length > 0`
        continue;
      }
      const i = typeof seg === 'number' ? seg : /^\d+$/.test(seg) ? Number(seg) : -1;
      if (i < 0 || i >= cur.length) return NOT_FOUND;
      cur = cur[i];
    } else {
      const key = String(seg);
      if (!Object.hasOwn(cur, key)) return NOT_FOUND;
      cur = (cur as Record<string, unknown>)[key];
    }
  }
  return { found: true, values: [cur] };
}
