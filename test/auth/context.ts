// A small, real AuthContext for strategy tests, until the runner's own is used: actors are
// loaded from YAML by the real loader, templates rendered by the real renderer
// (secrets from FLOW_SECRET_* only), requests sent with undici, responses read by the
// real FlowResponse. `exchange` does what the runner's does for a login: render, send,
// check expect_status (none: any 2xx), extract, and show the values extracted so far as
// {{<actor>.<field>}} to the next request of the same login.
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { AuthContext, AuthStrategy, Session } from '../../src/auth/types.js';
import type { PreparedRequest } from '../../src/http/index.js';
import { strategyFor } from '../../src/auth/index.js';
import { FlowError } from '../../src/errors.js';
import { loadProject } from '../../src/project/index.js';
import type { Actor, AuthConfig, RequestSpec, TemplateValue } from '../../src/project/types.js';
import { createResponse, type FlowResponse } from '../../src/http/response.js';
import { readPath } from '../../src/runtime/extract/paths.js';
import { createSecretStore } from '../../src/runtime/secrets/index.js';
import { lookupInState, render, renderString, type RenderContext } from '../../src/runtime/template/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

/**
 * An API answering GET /me with 200, for the tests of one file: started before them, closed
 * (with the file's projects) after. Call at the top of the file; the getter gives the server.
 */
export function meServer(): () => TestServer {
  let srv: TestServer | undefined;
  beforeAll(async () => {
    srv = await startServer({ '/me': (_req, res) => json(res, 200, { ok: true }) });
  });
  afterAll(async () => {
    await srv?.close();
    await cleanProjects();
  });
  return () => srv!;
}

export interface TestAuth {
  ctx: AuthContext;
  /** every value handed to ctx.redact */
  redacted: string[];
  /** purposes of the exchanges, in order */
  purposes: string[];
  /** the session values visible as {{<actor>.x}} */
  values: Record<string, unknown>;
}

export interface TestAuthOptions {
  baseUrl: string;
  actor?: Actor;
  /** FLOW_SECRET_<NAME> values */
  secrets?: Record<string, string>;
}

export function makeAuthContext({ baseUrl, actor, secrets = {} }: TestAuthOptions): TestAuth {
  const redacted: string[] = [];
  const purposes: string[] = [];
  const values: Record<string, unknown> = {};
  const env = Object.fromEntries(Object.entries(secrets).map(([k, v]) => [`FLOW_SECRET_${k}`, v]));
  const rc: RenderContext = {
    env: { baseUrl },
    vars: {},
    secrets: createSecretStore({ projectName: 'auth-test', env, keychain: false, onReveal: (v) => redacted.push(v) }),
    lookupScoped: (ref) => lookupInState(ref, { session: (name) => (name === actor?.id ? values : undefined), instances: () => undefined }),
  };

  async function exchange(spec: RequestSpec, purpose: string): Promise<{ response: FlowResponse; extracted: Record<string, unknown> }> {
    purposes.push(purpose);
    const path = renderString(spec.path, rc);
    const url = new URL(/^https?:\/\//.test(path) ? path : baseUrl + path);
    for (const [k, v] of Object.entries(spec.queryParams)) url.searchParams.append(k, String(await render(v, rc)));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(spec.headers)) headers[k.toLowerCase()] = String(await render(v, rc));
    let body: string | undefined;
    if (spec.bodyForm) {
      const form = (await render(spec.bodyForm, rc)) as Record<string, unknown>;
      body = new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (spec.body !== undefined) {
      body = JSON.stringify(await render(spec.body, rc));
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(url, { method: spec.method, headers, body });
    const response = createResponse({
      status: res.statusCode,
      headers: res.headers as Record<string, string | string[]>,
      body: Buffer.from(await res.body.arrayBuffer()),
      url: url.href,
    });
    const ok = spec.expectStatus ? spec.expectStatus.includes(response.status) : response.status >= 200 && response.status < 300;
    if (!ok) throw new FlowError('E_STATUS_MISMATCH', `expected ${spec.expectStatus?.join(' or ') ?? '2xx'}, got ${response.status}`);
    const extracted: Record<string, unknown> = {};
    for (const x of spec.extract) {
      const got = readPath(x.path, response);
      if (!got.found) throw new FlowError('E_EXTRACT_FAILED', `${x.path} not found for ${x.name}`);
      extracted[x.name] = got.values[0];
    }
    Object.assign(values, extracted);
    return { response, extracted };
  }

  const ctx: AuthContext = {
    actor,
    projectDir: '/nonexistent',
    render: (v: TemplateValue) => render(v, rc),
    renderString: (t: string) => renderString(t, rc),
    exchange,
    redact: (v) => void redacted.push(v),
    now: () => Date.now(),
  };
  return { ctx, redacted, purposes, values };
}

/** Load one actor from YAML (the file `actors/<id>.yaml`) with the real loader. */
export async function loadActor(yaml: string): Promise<Actor> {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nname: auth-test\nimports:\n  - actors/*.yaml\n',
    'actors/a.yaml': yaml,
  });
  const project = await loadProject(dir);
  const errors = project.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`test project does not load: ${errors.map((d) => d.message).join('; ')}`);
  const [actor] = project.actors.values();
  if (!actor) throw new Error('test project has no actor');
  return actor;
}

/** login + apply onto a GET of `url`, as the runner does before sending; then send it. */
export async function loginAndSend(
  auth: AuthConfig,
  t: TestAuth,
  url: string,
): Promise<{ session: Session; req: PreparedRequest; status: number; body: string }> {
  const strategy: AuthStrategy = strategyFor(auth.strategy);
  const session = await strategy.login(auth, t.ctx);
  const req: PreparedRequest = { method: 'GET', url: new URL(url), headers: { accept: 'application/json' } };
  await strategy.apply(req, auth, session, t.ctx);
  const res = await request(req.url, { method: req.method, headers: req.headers });
  return { session, req, status: res.statusCode, body: await res.body.text() };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<FlowError> {
  try {
    await p;
  } catch (err) {
    return err as FlowError;
  }
  throw new Error('expected a rejection');
}
