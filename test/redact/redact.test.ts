import { describe, expect, it } from 'vitest';
import { base64Forms, createRedactor, isCredentialHeader } from '../../src/redact/index.js';

const SECRET = 's3cr3t/Pa ss+wörd"x';

describe('redactor: text', () => {
  it('replaces the secret in every form a request carries it', () => {
    const r = createRedactor([SECRET]);
    const forms = {
      raw: SECRET,
      json: JSON.stringify({ password: SECRET }),
      urlComponent: `https://h/x?pw=${encodeURIComponent(SECRET)}&a=1`,
      form: new URLSearchParams({ pw: SECRET, a: '1' }).toString(),
      base64: Buffer.from(SECRET).toString('base64'),
      base64url: Buffer.from(SECRET).toString('base64url'),
      basicAuth: `curl -H 'Authorization: Basic ${Buffer.from(`alice:${SECRET}`).toString('base64')}'`,
      basicAuth2: Buffer.from(`bob:${SECRET}`).toString('base64'),
      basicAuth3: Buffer.from(`anna:${SECRET}`).toString('base64'),
      // written by hand into a path or query: the URL parser escapes only some characters
      inPath: new URL(`https://h/x/${SECRET}`).href,
      inQuery: new URL(`https://h/x?pw=${SECRET}`).href,
      // a server echoing a JSON body as a JSON string
      jsonInJson: JSON.stringify({ echo: JSON.stringify({ password: SECRET }) }),
    };
    for (const [name, text] of Object.entries(forms)) {
      const out = r.text(`before ${text} after`);
      expect(out, name).toContain('***');
      expect(out, name).not.toContain(text);
      expect(out, name).toMatch(/^before .* after$/);
    }
    expect(r.text(`${SECRET}`)).toBe('***');
    expect(r.text(`a ${SECRET} b ${SECRET}`)).toBe('a *** b ***');
  });

  it('a token is replaced in every form it travels in, whichever characters it has', () => {
    // a JWT, an opaque token, and ones with a character that one encoding or another changes
    for (const token of ['eyJhbGc.eyJzdWIi.sig_Na-9', 'tok-123', 'a~b~c~d', "it's*(x)!", 'x+y/z=w', 'k%20v&w', 'ü-token']) {
      const r = createRedactor();
      r.add(token, 'token');
      const json = JSON.stringify(token).slice(1, -1);
      // each text, and the token as that text carries it
      const forms: Record<string, [string, string]> = {
        json: [JSON.stringify({ token }), json],
        jsonInJson: [JSON.stringify({ echo: JSON.stringify({ token }) }), JSON.stringify(json).slice(1, -1)],
        urlComponent: [`https://h/x?t=${encodeURIComponent(token)}&a=1`, encodeURIComponent(token)],
        form: [new URLSearchParams({ t: token, a: '1' }).toString(), new URLSearchParams({ t: token }).toString().slice(2)],
        inPath: [new URL(`https://h/x/${token}`).href, new URL(`https://h/x/${token}`).pathname.slice(3)],
        inQuery: [new URL(`https://h/x?t=${token}`).href, new URL(`https://h/x?t=${token}`).search.slice(3)],
      };
      for (const [name, [text, carried]] of Object.entries(forms)) {
        const out = r.text(text);
        expect(text, `${token} ${name}`).toContain(carried);
        expect(out, `${token} ${name}`).not.toContain(carried);
        expect(out, `${token} ${name}`).toContain('***');
      }
      expect(r.text(`a ${token} b`)).toBe('a *** b');
    }
  });

  it('the base64 forms cover each byte alignment inside a longer encoding', () => {
    const secret = 'hunter22';
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:', 'x:']) {
      const encoded = Buffer.from(`${prefix}${secret}!tail`).toString('base64');
      expect(
        base64Forms(secret).some((f) => encoded.includes(f)),
        prefix,
      ).toBe(true);
    }
  });

  it('leaves text without secrets alone, and knows secrets added later', () => {
    const r = createRedactor();
    expect(r.text('nothing to hide')).toBe('nothing to hide');
    r.add('token-abc');
    expect(r.text('x token-abc y')).toBe('x *** y');
    r.add('second-secret');
    expect(r.text('token-abc second-secret')).toBe('*** ***');
    expect(r.size).toBe(2);
  });

  it('regex characters in a secret are literal', () => {
    const r = createRedactor(['a.b*c(d)[e]$']);
    expect(r.text('xa.b*c(d)[e]$y aXb')).toBe('x***y aXb');
  });

  it('where secrets overlap, the longer one is replaced whole', () => {
    const r = createRedactor(['abcd', 'abcdefgh']);
    expect(r.text('__abcdefgh__')).toBe('__***__');
  });

  it('a secret shorter than 4 characters is redacted only as a whole value', () => {
    const r = createRedactor(['abc']);
    expect(r.text('abc')).toBe('***');
    expect(r.text('the abc of it')).toBe('the abc of it');
    expect(r.value({ pin: 'abc', note: 'abcdef' })).toEqual({ pin: '***', note: 'abcdef' });
  });

  it('a secret shorter than 4 characters is hidden as a whole JSON string inside text, as README says', () => {
    const r = createRedactor(['Zq9']);
    expect(r.text('{"pin":"Zq9","other":"Zq9x"}')).toBe('{"pin":"***","other":"Zq9x"}');
    // JSON inside JSON (a server echoing the body it received)
    expect(r.text(JSON.stringify({ echo: JSON.stringify({ pin: 'Zq9' }) }))).toBe('{"echo":"{\\"pin\\":\\"***\\"}"}');
    expect(r.excerpt('{"pin":"Zq9"}', 200).text).toBe('{"pin":"***"}');
    expect(r.text('Zq9 in prose stays: a short value rewrites harmless text')).toBe('Zq9 in prose stays: a short value rewrites harmless text');
  });

  it('finds a secret at the end of a large body, and only there', () => {
    const r = createRedactor(['secret-value-1', 'secret-value-2', 'another-one']);
    const body = `${'lorem ipsum dolor sit amet '.repeat(400_000)}secret-value-2`;
    const out = r.text(body);
    expect(out.endsWith(' ***')).toBe(true);
    expect(out.length).toBe(body.length - 'secret-value-2'.length + 3);
  });
});

describe('redactor: headers', () => {
  it('redacts credential headers by name, keeping the scheme word', () => {
    const r = createRedactor();
    const out = r.headers({
      Authorization: 'Bearer eyJhbGciOi.abc.def',
      'proxy-authorization': 'Basic dXNlcjpwYXNz',
      'X-Api-Key': 'k1',
      'Api-Key': 'k2',
      apikey: 'k3',
      'X-Auth-Token': 't1',
      'X-Client-Secret': 's1',
      x_session_token: 't2',
      Cookie: 'sid=abc; theme=dark',
      'Content-Type': 'application/json',
      Accept: '*/*',
    });
    expect(out).toEqual({
      Authorization: 'Bearer ***',
      'proxy-authorization': 'Basic ***',
      'X-Api-Key': '***',
      'Api-Key': '***',
      apikey: '***',
      'X-Auth-Token': '***',
      'X-Client-Secret': '***',
      x_session_token: '***',
      Cookie: 'sid=***; theme=***',
      'Content-Type': 'application/json',
      Accept: '*/*',
    });
  });

  it('an Authorization value without a scheme is wholly ***', () => {
    expect(createRedactor().headers({ authorization: 'rawtoken' })).toEqual({ authorization: '***' });
  });

  it('Set-Cookie keeps the cookie name and attributes; arrays and numbers are handled', () => {
    const r = createRedactor();
    expect(r.headers({ 'set-cookie': ['sid=abc; Path=/; HttpOnly', 'csrf=xyz'], 'content-length': 12, 'x-none': undefined })).toEqual({
      'set-cookie': ['sid=***; Path=/; HttpOnly', 'csrf=***'],
      'content-length': '12',
    });
  });

  it('other headers go through the text redaction', () => {
    const r = createRedactor(['tenant-secret-id']);
    expect(r.headers({ 'X-Tenant': 'tenant-secret-id', Referer: 'https://h/?k=tenant-secret-id' })).toEqual({ 'X-Tenant': '***', Referer: 'https://h/?k=***' });
  });

  it('knows which names are credentials', () => {
    for (const name of ['Authorization', 'Cookie', 'Set-Cookie', 'X-CSRF-Token', 'X-Amz-Security-Token', 'Ocp-Apim-Subscription-Key'])
      expect(isCredentialHeader(name), name).toBe(true);
    for (const name of ['Content-Type', 'Accept', 'X-Request-Id', 'Tokens-Left', 'Keyboard']) expect(isCredentialHeader(name), name).toBe(false);
  });
});

describe('redactor: value', () => {
  it('redacts deep: secret values anywhere, credential-named fields whatever they hold', () => {
    const r = createRedactor(['pw-123456']);
    const input = {
      user: { name: 'alice', password: 'anything', note: 'my pw is pw-123456' },
      access_token: 'eyJ.x.y',
      refreshToken: 'r-1',
      list: ['pw-123456', 1, null, { 'client-secret': 42 }],
      tokenCount: 3,
      ok: true,
    };
    expect(r.value(input)).toEqual({
      user: { name: 'alice', password: '***', note: 'my pw is ***' },
      access_token: '***',
      refreshToken: '***',
      list: ['***', 1, null, { 'client-secret': '***' }],
      tokenCount: 3,
      ok: true,
    });
    // The input is not changed.
    expect(input.user.password).toBe('anything');
  });
});

describe('many secrets (one-pass index)', () => {
  it('replaces each of hundreds of tokens sharing prefixes, the longest match first', async () => {
    const { createRedactor } = await import('../../src/redact/index.js');
    const tokens = Array.from({ length: 300 }, (_, i) => `tok-user${i}-${(i * 7919).toString(36)}`);
    const r = createRedactor([...tokens, 'tok-user1']);
    const text = tokens.map((t, i) => `${i}:${t};`).join('') + ' tok-user1 alone';
    const out = r.text(text);
    for (const t of tokens) expect(out).not.toContain(t);
    expect(out.match(/\*\*\*/g)?.length).toBe(301);
    expect(out).not.toMatch(/\*\*\*\d/); // a longer token was never cut at a shorter one
    const { FormIndex } = await import('../../src/redact/form-index.js');
    const index = new FormIndex();
    for (const f of ['abcd', 'abcdef', 'bcde', 'zzzz']) index.add(f);
    expect(index.replace('xabcdefx abcdx bcdex zzzzz', '*')).toBe('x*x *x *x *z');
    expect(index.replace('abc', '*')).toBe('abc');
  });
});

describe('secrets added one by one, between outputs', () => {
  it('never leaks part of a secret that contains, or is contained in, an earlier one', async () => {
    const { createRedactor } = await import('../../src/redact/index.js');
    const r = createRedactor();
    r.add('abcd1234', 'token');
    expect(r.text('x abcd1234 y')).toBe('x *** y');
    r.add('abcd1234xyzw', 'token'); // contains the first
    expect(r.text('x abcd1234xyzw y')).toBe('x *** y');
    r.add('cd12', 'token'); // inside the first
    expect(r.text('x abcd1234 cd12 y')).toBe('x *** *** y');
    for (let i = 0; i < 40; i++) r.add(`tok-${i}-${'q'.repeat(8)}`, 'token');
    const out = r.text(Array.from({ length: 40 }, (_, i) => `tok-${i}-${'q'.repeat(8)}`).join(' '));
    expect(out).toBe(Array(40).fill('***').join(' '));
  });
});

describe('short values (under 8 characters): whole tokens only, never in a URL path', () => {
  it('a short login value is hidden where it stands alone in a header or body, not inside words or the path it names', () => {
    const r = createRedactor();
    r.add('carol', 'token');
    expect(r.url('http://h/basic-auth/carol/carol?pw=carol&user=carolina#carol')).toBe('http://h/basic-auth/carol/carol?pw=***&user=carolina#***');
    expect(r.text('{"user":"carol","note":"carolina and caroline"}')).toBe('{"user":"***","note":"carolina and caroline"}');
    expect(r.headers({ 'X-User': 'carol', 'X-Note': 'Carol carol_x' })).toEqual({ 'X-User': '***', 'X-Note': 'Carol carol_x' });
    expect(r.text('user=carol&x=1')).toBe('user=***&x=1');
  });

  it('from 8 characters on, a value is hidden everywhere, the URL path included', () => {
    const r = createRedactor(['longpass']);
    expect(r.url('http://h/u/longpass/x?q=xlongpassx')).toBe('http://h/u/***/x?q=x***x');
    expect(r.text('xlongpassx')).toBe('x***x');
  });
});

describe('JSON escapes of any character (Go, Python, PHP)', () => {
  it('finds a secret spelt with \\uXXXX escapes, \\/ and double escaping', () => {
    const secret = 'tok<en>&key/Ünï';
    const r = createRedactor([secret]);
    const go = (s: string) => s.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const spellings = {
      go: go(JSON.stringify({ t: secret })),
      python: JSON.stringify({ t: secret }).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      php: JSON.stringify({ t: secret }).replace(/\//g, '\\/'),
      letters: JSON.stringify({ t: secret }).replace(/k/g, '\\u006B'),
      goInJson: JSON.stringify({ echo: go(JSON.stringify({ t: secret })) }),
    };
    for (const [name, text] of Object.entries(spellings)) {
      const out = r.text(`before ${text} after`);
      expect(out, name).toMatch(/^before \{"(t|echo)":"(\*\*\*|\{\\"t\\":\\"\*\*\*\\"\})"\} after$/);
    }
    // other escapes around it stay as they are
    expect(r.text('"a\\nb \\u003c ok"')).toBe('"a\\nb \\u003c ok"');
  });

  it('a backslash that begins no JSON escape is kept, and the escapes after it still map to the text', () => {
    const r = createRedactor(['tok<en>&key']);
    expect(r.text('{"a":"\\q \\u12 \\\\ \\/ tok\\u003cen\\u003e\\u0026key \\"x"} \\')).toBe('{"a":"\\q \\u12 \\\\ \\/ *** \\"x"} \\');
    expect(r.excerpt('{"a":"x\\\\ tok\\u003cen\\u003', 100, true).text).toBe('{"a":"x\\\\ ***');
  });
});

describe('redact, then cut', () => {
  it('excerpt: cut after redaction, never inside a ***', () => {
    const r = createRedactor(['the-secret-value']);
    const text = `${'a'.repeat(9)}the-secret-value${'b'.repeat(20)}`;
    expect(r.excerpt(text, 10)).toEqual({ text: 'a'.repeat(9), more: 23 });
    expect(r.excerpt(text, 12)).toEqual({ text: `${'a'.repeat(9)}***`, more: 20 });
    expect(r.excerpt(text, 100)).toEqual({ text: `${'a'.repeat(9)}***${'b'.repeat(20)}`, more: 0 });
  });

  it('a text that is the start of a longer one hides a start of a secret at its end', () => {
    const r = createRedactor(['the-secret-value']);
    expect(r.excerpt('xx the-secr', 100, true).text).toBe('xx ***');
    expect(r.excerpt('xx "the\\u002dsecr', 100, true).text).toBe('xx "***');
    expect(r.excerpt('xx plain word', 100, true).text).toBe('xx plain word');
  });

  it('text cut before redaction (ending with …) hides what could begin a secret before the mark', () => {
    const r = createRedactor(['the-secret-value']);
    expect(r.text('is not JSON: "<p>the-sec…"')).toBe('is not JSON: "<p>***…"');
    expect(r.text('actual: "the\\u002dsec\\u00…")')).toBe('actual: "***…")');
    expect(r.text('unrelated… and more…')).toBe('unrelated… and more…');
  });
});

describe('redactor: many short values (one per login of a large run)', () => {
  it('hides each as a whole token, the longest first, and none inside a longer word', () => {
    const tokens = Array.from({ length: 250 }, (_, i) => `tok-${i}`);
    const r = createRedactor(tokens);
    // every token whole: in JSON, in a header value, at the start and the end of a text
    expect(r.text(JSON.stringify({ token: 'tok-249', other: 'tok-7' }))).toBe('{"token":"***","other":"***"}');
    expect(r.text('tok-12 and tok-120')).toBe('*** and ***');
    // tok-1 is a token, but not inside tok-12x, xtok-1 or tok-1_2 (letters, digits, _ border it)
    expect(r.text('tok-12x xtok-1 tok-1_2 ätok-1 tok-1ä')).toBe('tok-12x xtok-1 tok-1_2 ätok-1 tok-1ä');
    // a non-word neighbour is a border: punctuation and an emoji (a surrogate pair)
    expect(r.text('(tok-3)/tok-4 😀tok-5😀')).toBe('(***)/*** 😀***😀');
  });
});
