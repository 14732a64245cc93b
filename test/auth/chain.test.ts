// chain: steps in order; a later step reads what an earlier one extracted as {{<actor>.<field>}}.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects } from '../helpers/project.js';
import { loadActor, makeAuthContext, rejection } from './context.js';

let srv: TestServer;
let issued = 0;
beforeAll(async () => {
  srv = await startServer({
    'POST /login': (req, res) => {
      const body = req.json() as { password?: string };
      if (body.password !== 'pw') return json(res, 401, {});
      issued++;
      json(res, 200, { challenge: `ch-${issued}` });
    },
    'POST /otp': (req, res) => {
      const body = req.json() as { challenge?: string; code?: string };
      if (body.challenge !== `ch-${issued}` || body.code !== '123456') return json(res, 403, { error: 'bad otp' });
      json(res, 200, { token: `tok-${issued}` });
    },
  });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

const chainYaml = (otpStep: string) => `name: admin
auth:
  strategy: chain
  steps:
    - id: password
      method: POST
      path: /login
      body: { user: admin, password: "{{secret.PW}}" }
      expect_status: 200
      extract:
        challenge: $.data.challenge
${otpStep}`;

const OTP = `    - id: otp
      method: POST
      path: /otp
      body: { challenge: "{{admin.challenge}}", code: "{{secret.OTP}}" }
      expect_status: [200]
      extract:
        token: $.data.token
`;

interface Case {
  name: string;
  yaml: string;
  secrets: Record<string, string>;
  values?: (n: number) => Record<string, unknown>;
  purposes?: string[];
  error?: RegExp;
}

const cases: Case[] = [
  {
    name: 'two steps, the second reads the first one’s value',
    yaml: chainYaml(OTP),
    secrets: { PW: 'pw', OTP: '123456' },
    values: (n) => ({ challenge: `ch-${n}`, token: `tok-${n}` }),
    purposes: ['login step password', 'login step otp'],
  },
  {
    name: 'a failing step names itself; later steps are not sent',
    yaml: chainYaml(OTP),
    secrets: { PW: 'nope', OTP: '123456' },
    error: /^login of actor admin failed at step password: E_STATUS_MISMATCH expected 200, got 401$/,
    purposes: ['login step password'],
  },
  {
    name: 'a step without id is named by its position',
    yaml: chainYaml(OTP.replace('- id: otp\n      method', '- method')),
    secrets: { PW: 'pw', OTP: '000000' },
    error: /^login of actor admin failed at step 2: E_STATUS_MISMATCH expected 200, got 403$/,
    purposes: ['login step password', 'login step 2'],
  },
  { name: 'no steps', yaml: 'name: admin\nauth:\n  strategy: chain\n', secrets: {}, error: /^chain auth of actor admin has no `steps`$/, purposes: [] },
];

describe('chain', () => {
  test.each(cases)('$name', async (c) => {
    const actor = await loadActor(c.yaml);
    const t = makeAuthContext({ baseUrl: srv.url, actor, secrets: c.secrets });
    const strategy = strategyFor('chain');
    if (c.error) {
      const err = await rejection(strategy.login(actor.auth!, t.ctx));
      expect(err.code).toBe('E_AUTH');
      expect(err.message).toMatch(c.error);
      expect(t.purposes).toEqual(c.purposes);
      return;
    }
    const session = await strategy.login(actor.auth!, t.ctx);
    expect(session.values).toEqual(c.values!(issued));
    expect(t.purposes).toEqual(c.purposes);
    // the server saw step 1's value in step 2
    expect(srv.requests.at(-1)!.json()).toEqual({ challenge: `ch-${issued}`, code: '123456' });
  });
});
