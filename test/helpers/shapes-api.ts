// An API answering with the shapes real servers showed calibrate (a feature-flag server and an
// issue tracker): JSON-pointer error paths, sentences naming a field, 415 to a write without
// a body, empty bodies labelled application/json, a PUT answering 204 with nothing, paths
// ending in `.json`, ids reused after a delete, and an empty list as an answer.
import { json, startServer, type RecordedRequest, type TestServer } from './http-server.js';
import type { ServerResponse } from 'node:http';

/** An answer with no body whose Content-Type still says JSON (as the tracker sends 401/403/404). */
function empty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': 0 });
  res.end();
}

const isJson = (req: RecordedRequest) => /^application\/json/.test(String(req.headers['content-type'] ?? ''));
const body = (req: RecordedRequest): Record<string, unknown> => {
  try {
    const b = req.json();
    return b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export const SHAPES_KEY = 'tracker-key-52e1';

export async function startShapesApi(): Promise<TestServer> {
  // issues: the lowest free id is given again after a delete (as the tracker's table did)
  const issues = new Map<number, Record<string, unknown>>();
  const nextId = () => {
    let id = 1;
    while (issues.has(id)) id++;
    return id;
  };
  // tags are unique by type and value; one is there before any run
  const tags = new Set(['simple:a-tag-value']);
  const rules = new Set<string>();
  const segments = new Set<number>();
  return startServer({
    // a strategy names a strategy type that exists; the answer quotes the name sent
    'POST /api/admin/strategies': (req, res) => {
      const name = String(body(req).name);
      return ['default', 'flexibleRollout'].includes(name)
        ? json(res, 200, { id: `s-${Date.now()}`, name })
        : json(res, 400, { name: 'BadDataError', message: `Request validation failed: Could not find strategy type with name ${name}` });
    },
    'POST /api/admin/tags/of': (req, res) => {
      const key = `${String(body(req).type)}:${String(body(req).value)}`;
      if (body(req).type !== 'simple') return json(res, 404, { name: 'NotFoundError', message: 'Could not find tag type' });
      if (tags.has(key)) return json(res, 409, { name: 'NameExistsError', message: 'A tag of [object Object] already exists' });
      tags.add(key);
      return json(res, 201, { tag: { type: 'simple', value: body(req).value } });
    },
    // the feature-flag server: Ajv errors whose details[].path points at the field
    'POST /api/admin/tags': (req, res) =>
      typeof body(req).type === 'string'
        ? json(res, 201, { value: body(req).value, type: body(req).type })
        : json(res, 400, {
            id: 'e1',
            name: 'ValidationError',
            message: 'Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information.',
            details: [{ path: '/body/type', description: 'The `/body/type` property is required.', message: 'The `/body/type` property is required.' }],
          }),
    // a write that takes JSON only, sent with no body at all
    'POST /api/admin/archive/revive': (req, res) => {
      if (!isJson(req))
        return json(res, 415, {
          name: 'ContentTypeError',
          message: `We do not accept the content-type you provided (${req.headers['content-type'] ?? 'undefined'}). Try using one of the content-types we do accept instead (application/json) and make sure the body is in line with the data format of your content-type. You didn't provide one`,
        });
      return Array.isArray(body(req).features)
        ? json(res, 200, { revived: (body(req).features as unknown[]).length })
        : json(res, 400, { details: [{ path: '/body/features', message: 'required' }] });
    },
    // a list that needs an item (Ajv's minItems), and a list of numbers
    'POST /edge/validate': (req, res) => {
      if (!isJson(req))
        return json(res, 415, { name: 'ContentTypeError', message: "We do not accept the content-type you provided (you didn't provide one)." });
      const { tokens, ids } = body(req);
      if (!Array.isArray(tokens) || !tokens.length || typeof tokens[0] !== 'string')
        return json(res, 400, { details: [{ path: '/body/tokens', message: 'The `/body/tokens` property must NOT have fewer than 1 items.' }] });
      if (!Array.isArray(ids) || typeof ids[0] !== 'number')
        return json(res, 400, { details: [{ path: '/body/ids', message: 'The `/body/ids` property must be array' }] });
      return json(res, 200, { tokens: [] });
    },
    // a body that is one of two shapes (oneOf), and a JSON Patch (a list)
    'POST /api/admin/api-tokens': (req, res) => {
      if (!isJson(req))
        return json(res, 415, { name: 'ContentTypeError', message: "We do not accept the content-type you provided (you didn't provide one)." });
      const { type, tokenName } = body(req);
      if (typeof type !== 'string' || !/^(client|backend|frontend)$/i.test(type))
        return json(res, 400, { details: [{ path: '/body/type', message: 'must match pattern' }] });
      if (typeof tokenName !== 'string') return json(res, 400, { details: [{ path: '/body/tokenName', message: 'required' }] });
      return json(res, 201, { secret: 'default:development.x', tokenName });
    },
    'PATCH /api/admin/features/f1': (req, res) => {
      if (!isJson(req))
        return json(res, 415, { name: 'ContentTypeError', message: "We do not accept the content-type you provided (you didn't provide one)." });
      let patch: unknown;
      try {
        patch = req.json();
      } catch {
        patch = undefined;
      }
      return Array.isArray(patch) ? json(res, 200, { name: 'f1' }) : json(res, 400, { details: [{ message: 'The request body must be array' }] });
    },
    // a required boolean the description gives no example of
    // and its provider's parameters, which the answer does not name
    'POST /api/admin/addons': (req, res) => {
      if (typeof body(req).enabled !== 'boolean')
        return json(res, 400, { details: [{ path: '/body/enabled', message: 'The `/body/enabled` property must be boolean' }] });
      const parameters = body(req).parameters as Record<string, unknown> | undefined;
      if (typeof parameters?.url !== 'string')
        return json(res, 400, { details: [{ message: 'A validation error occurred while processing your request data.' }] });
      return json(res, 201, { id: 7, enabled: body(req).enabled });
    },
    // a required list of objects the description gives no example of: an empty one will do
    'POST /api/admin/segments': (req, res) => {
      if (!Array.isArray(body(req).constraints))
        return json(res, 400, { details: [{ path: '/body/constraints', message: 'The `/body/constraints` property must be array' }] });
      segments.add(3);
      return json(res, 201, { id: 3, name: body(req).name });
    },
    // a rule, and a rule attached to segments: ids that must exist (a foreign key fails with a 500)
    'POST /api/admin/rules': (_req, res) => {
      const id = `r${rules.size + 1}`;
      rules.add(id);
      return json(res, 201, { id });
    },
    'POST /api/admin/rules/attach': (req, res) => {
      const { ruleId, segmentIds } = body(req);
      if (!rules.has(String(ruleId)))
        return json(res, 500, { name: 'UnknownError', message: 'insert into "rule_segment" violates foreign key constraint "rule_segment_rule_id_fkey"' });
      if (!Array.isArray(segmentIds) || !segmentIds.every((s) => segments.has(Number(s)))) return json(res, 404, { message: 'No segment with that id' });
      return json(res, 201, { ruleId, segmentIds });
    },
    // an expiry must be ahead of now (the description's example is years old)
    'POST /api/admin/user/tokens': (req, res) => {
      const at = Date.parse(String(body(req).expiresAt));
      if (!(at > Date.now()))
        return json(res, 400, {
          name: 'BadDataError',
          message: 'The expiry date should be in future.',
          details: [{ message: 'The expiry date should be in future.' }],
        });
      return json(res, 201, { id: 5, description: body(req).description });
    },
    // a refusal of the request itself (a feature the server retired), whoever asks; and one of who asks
    'PUT /api/admin/variants': (_req, res) =>
      json(res, 403, { name: 'ForbiddenError', message: 'Environment variants deprecated for feature: f1. Use strategy variants instead.' }),
    'PUT /api/admin/locked': (_req, res) => json(res, 403, { message: 'You need permission UPDATE_FEATURE to do this' }),
    // an update of nothing fails on the server's side
    'PUT /api/admin/tag-types/t1': (req, res) => {
      if (!isJson(req))
        return json(res, 415, { name: 'ContentTypeError', message: "We do not accept the content-type you provided (you didn't provide one)." });
      return Object.keys(body(req)).length
        ? json(res, 200, { name: 't1' })
        : json(res, 500, { name: 'UnknownError', message: 'Empty .update() call detected!' });
    },
    // a GET that names a field: a parameter, never a body
    'GET /api/admin/user/profile': (_req, res) => json(res, 400, { name: 'BadDataError', message: '"id" is required' }),
    // an empty list is an answer
    'GET /api/admin/metrics/applications': (_req, res) => json(res, 200, { applications: [] }),
    // the tracker: empty 401/403/404 bodies labelled JSON
    'GET /my/account.json': (req, res) => (req.headers['x-api-key'] === SHAPES_KEY ? json(res, 200, { user: { id: 1 } }) : empty(res, 401)),
    '*': (req, res) => {
      if (req.headers['x-api-key'] !== SHAPES_KEY) return empty(res, 401);
      if (req.method === 'POST' && req.path === '/issues.json') {
        const issue = (body(req).issue ?? {}) as Record<string, unknown>;
        if (typeof issue.subject !== 'string' || !issue.subject) return json(res, 422, { errors: ['Subject cannot be blank'] });
        const id = nextId();
        issues.set(id, { id, subject: issue.subject });
        return json(res, 201, { issue: issues.get(id) });
      }
      const m = /^\/issues\/(\d+)\.json$/.exec(req.path);
      const issue = m ? issues.get(Number(m[1])) : undefined;
      if (!m || !issue) return empty(res, 404);
      if (req.method === 'GET') return json(res, 200, { issue });
      if (req.method === 'PUT') {
        Object.assign(issue, body(req).issue ?? {});
        return empty(res, 204);
      }
      if (req.method === 'DELETE') {
        issues.delete(Number(m[1]));
        return empty(res, 204);
      }
      return empty(res, 404);
    },
  });
}
