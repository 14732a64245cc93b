// basic: `Authorization: Basic base64(username:password)`, checked on the server side.
import { describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import type { PreparedRequest } from '../../src/http/index.js';
import { loadActor, loginAndSend, makeAuthContext, meServer, rejection } from './context.js';

const srv = meServer();

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

interface Case {
  name: string;
  auth: string;
  secrets?: Record<string, string>;
  header?: string;
  /** values that must have been registered for redaction, and one that must not */
  redacted?: string[];
  notRedacted?: string;
  error?: { code: string; message: RegExp; secret?: string };
}

const cases: Case[] = [
  {
    name: 'literal username and password',
    auth: 'username: alice\n  password: s3cret',
    header: `Basic ${b64('alice:s3cret')}`,
    redacted: ['s3cret', b64('alice:s3cret')],
    notRedacted: 'alice',
  },
  {
    name: 'password from {{secret.X}}, UTF-8 and a colon in it',
    auth: 'username: "{{secret.USER}}"\n  password: "{{secret.PW}}"',
    secrets: { USER: 'bob', PW: 'pä55:wörd' },
    header: `Basic ${b64('bob:pä55:wörd')}`,
    redacted: ['pä55:wörd'],
  },
  {
    name: 'password as a !secret value',
    auth: 'username: carol\n  password: !secret CAROL_PW',
    secrets: { CAROL_PW: 'tagged-pw' },
    header: `Basic ${b64('carol:tagged-pw')}`,
    redacted: ['tagged-pw'],
  },
  { name: 'an empty password is allowed', auth: 'username: dave\n  password: ""', header: `Basic ${b64('dave:')}` },
  {
    name: 'a missing secret names the actor and the cause',
    auth: 'username: alice\n  password: "{{secret.NOPE}}"',
    error: { code: 'E_AUTH', message: /^login of actor admin failed: E_SECRET_MISSING .*NOPE/ },
  },
  { name: 'no username', auth: 'password: x', error: { code: 'E_AUTH', message: /basic auth of actor admin has no `username`/ } },
  { name: 'no password', auth: 'username: alice', error: { code: 'E_AUTH', message: /has no `password`/ } },
  {
    name: 'a colon in the username cannot be carried',
    auth: 'username: "a:b"\n  password: "{{secret.PW}}"',
    secrets: { PW: 'hidden-pw' },
    error: { code: 'E_AUTH', message: /username` containing ":"/, secret: 'hidden-pw' },
  },
];

describe('basic', () => {
  test.each(cases)('$name', async (c) => {
    const actor = await loadActor(`name: admin\nauth:\n  strategy: basic\n  ${c.auth}\n`);
    const t = makeAuthContext({ baseUrl: srv().url, actor, secrets: c.secrets });
    const before = srv().requests.length;
    if (c.error) {
      const err = await rejection(loginAndSend(actor.auth!, t, `${srv().url}/me`));
      expect(err.code).toBe(c.error.code);
      expect(err.message).toMatch(c.error.message);
      if (c.error.secret) expect(err.message).not.toContain(c.error.secret);
      expect(srv().requests.length).toBe(before); // nothing sent without credentials
      return;
    }
    const { status, session } = await loginAndSend(actor.auth!, t, `${srv().url}/me`);
    expect(status).toBe(200);
    expect(srv().requests.at(-1)!.headers.authorization).toBe(c.header);
    expect(session.values).toEqual({}); // nothing readable as {{admin.x}}
    for (const r of c.redacted ?? []) expect(t.redacted).toContain(r);
    if (c.notRedacted) expect(t.redacted).not.toContain(c.notRedacted);
  });

  test('replaces an Authorization header of any case', async () => {
    const actor = await loadActor('name: admin\nauth:\n  strategy: basic\n  username: u\n  password: p\n');
    const t = makeAuthContext({ baseUrl: srv().url, actor });
    const strategy = strategyFor('basic');
    const session = await strategy.login(actor.auth!, t.ctx);
    const req: PreparedRequest = { method: 'GET', url: new URL(`${srv().url}/me`), headers: { authorization: 'Bearer old', 'x-other': '1' } };
    await strategy.apply(req, actor.auth!, session, t.ctx);
    expect(req.headers).toEqual({ Authorization: `Basic ${b64('u:p')}`, 'x-other': '1' });
  });
});
