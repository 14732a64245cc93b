// bearer: a token issued in advance -> `Authorization: Bearer <token>`, checked on the server.
import { describe, expect, test } from 'vitest';
import { loadActor, loginAndSend, makeAuthContext, meServer, rejection } from './context.js';

const srv = meServer();

interface Case {
  name: string;
  auth: string;
  secrets?: Record<string, string>;
  header?: string;
  redacted?: string;
  error?: RegExp;
}

const cases: Case[] = [
  { name: 'token from {{secret.X}}', auth: 'token: "{{secret.PAT}}"', secrets: { PAT: 'ghp_abc123' }, header: 'Bearer ghp_abc123', redacted: 'ghp_abc123' },
  { name: 'token as !secret', auth: 'token: !secret PAT', secrets: { PAT: 'tok-9' }, header: 'Bearer tok-9', redacted: 'tok-9' },
  {
    name: 'token built from text around a reference',
    auth: 'token: "v1.{{secret.PAT}}"',
    secrets: { PAT: 'xyz' },
    header: 'Bearer v1.xyz',
    redacted: 'v1.xyz',
  },
  { name: 'a token written with its scheme is not doubled', auth: 'token: "Bearer {{secret.PAT}}"', secrets: { PAT: 'tok-2' }, header: 'Bearer tok-2' },
  { name: 'no token', auth: 'tokn: x', error: /^bearer auth of actor bot has no `token`/ },
  { name: 'a missing secret', auth: 'token: "{{secret.PAT}}"', error: /^login of actor bot failed: E_SECRET_MISSING .*PAT/ },
  { name: 'an empty token', auth: 'token: ""', error: /has an empty `token`/ },
];

describe('bearer', () => {
  test.each(cases)('$name', async (c) => {
    const actor = await loadActor(`name: bot\nauth:\n  strategy: bearer\n  ${c.auth}\n`);
    const t = makeAuthContext({ baseUrl: srv().url, actor, secrets: c.secrets });
    const before = srv().requests.length;
    if (c.error) {
      const err = await rejection(loginAndSend(actor.auth!, t, `${srv().url}/me`));
      expect(err.code).toBe('E_AUTH');
      expect(err.message).toMatch(c.error);
      expect(srv().requests.length).toBe(before);
      return;
    }
    await loginAndSend(actor.auth!, t, `${srv().url}/me`);
    expect(srv().requests.at(-1)!.headers.authorization).toBe(c.header);
    if (c.redacted) expect(t.redacted).toContain(c.redacted);
  });
});
