import { beforeAll, describe, expect, it } from 'vitest';
import { FAKER_NAMES, loadFaker, render, renderString } from '../../../src/runtime/template/index.js';
import { rejection, testContext } from './helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('$.uuid', () => {
  it('is a v4 UUID, fresh on every use', async () => {
    const ctx = testContext();
    const out = (await render(['{{$.uuid}}', '{{$.uuid}}', 'id-{{$.uuid}}'], ctx)) as string[];
    expect(out[0]).toMatch(UUID_V4);
    expect(out[1]).toMatch(UUID_V4);
    expect(out[0]).not.toBe(out[1]);
    expect(out[2].slice(3)).toMatch(UUID_V4);
    const again = await render('{{$.uuid}}', ctx);
    expect(new Set([...out.slice(0, 2), again]).size).toBe(3);
  });
});

describe('$.now', () => {
  const fixed = new Date('2024-02-28T23:30:00.000Z');
  const ctx = testContext({ now: () => fixed });

  it.each([
    ['{{$.now}}', '2024-02-28T23:30:00.000Z'],
    ['{{$.now + 1h}}', '2024-02-29T00:30:00.000Z'],
    ['{{$.now - 30m}}', '2024-02-28T23:00:00.000Z'],
    ['{{$.now + 45s}}', '2024-02-28T23:30:45.000Z'],
    ['{{$.now + 2d}}', '2024-03-01T23:30:00.000Z'],
    ['{{ $.now-1d }}', '2024-02-27T23:30:00.000Z'],
  ])('%s -> %s', async (template, expected) => {
    expect(await render(template, ctx)).toBe(expected);
  });

  it('uses the real clock by default, ISO 8601 UTC with milliseconds', async () => {
    const before = Date.now();
    const out = (await render('{{$.now}}', testContext())) as string;
    expect(out).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(out)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(out)).toBeLessThanOrEqual(Date.now());
  });

  it('an unknown unit is E_TEMPLATE_SYNTAX', async () => {
    expect((await rejection(() => render('{{$.now + 1w}}', ctx))).code).toBe('E_TEMPLATE_SYNTAX');
  });
});

describe('$.faker', () => {
  beforeAll(async () => {
    await loadFaker({});
    await loadFaker({ faker: { seed: 1 } });
  });

  it('email and phone have their shapes, and differ between uses', async () => {
    const ctx = testContext();
    const emails = (await render(['{{$.faker.email}}', '{{$.faker.email}}', '{{$.faker.email}}'], ctx)) as string[];
    for (const e of emails) expect(e).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i);
    expect(new Set(emails).size).toBeGreaterThan(1);
    const phone = await render('{{$.faker.phone}}', ctx);
    expect(phone).toMatch(/^\+\d{8,15}$/);
  });

  it('every documented name generates a value of its kind', async () => {
    const ctx = testContext();
    for (const name of FAKER_NAMES) {
      const out = await render(`{{$.faker.${name}}}`, ctx);
      if (name === 'number') expect(typeof out, name).toBe('number');
      else expect(typeof out === 'string' && out.length > 0, name).toBe(true);
    }
    expect(await render('{{$.faker.uuid}}', ctx)).toMatch(UUID_V4);
    expect(await render('{{$.faker.url}}', ctx)).toMatch(/^https?:\/\//);
    expect(await render('{{$.faker.ipv4}}', ctx)).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('names match without case and underscores', async () => {
    const ctx = testContext();
    for (const spelling of ['firstName', 'first_name', 'FIRSTNAME']) expect(typeof (await render(`{{$.faker.${spelling}}}`, ctx))).toBe('string');
  });

  it('a seed makes the sequence reproducible', async () => {
    const a = testContext({ faker: { seed: 42 } });
    const b = testContext({ faker: { seed: 42 } });
    const template = ['{{$.faker.email}}', '{{$.faker.name}}', '{{$.faker.number}}'];
    const first = await render(template, a);
    expect(await render(template, b)).toEqual(first);
    // One sequence per context: the next render continues it.
    expect(await render(template, a)).not.toEqual(first);
  });

  it('renders synchronously once loaded (a run loads it before its first request)', () => {
    for (const ctx of [testContext(), testContext({ faker: { seed: 7 } })]) {
      const now = render({ email: '{{$.faker.email}}', n: '{{$.faker.number}}' }, ctx) as Record<string, unknown>;
      expect(now.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i);
      expect(typeof now.n).toBe('number');
    }
  });

  it('an unknown name is E_TEMPLATE_SYNTAX listing the known ones', async () => {
    const err = await rejection(() => render('{{$.faker.shoeSize}}', testContext()));
    expect(err.code).toBe('E_TEMPLATE_SYNTAX');
    expect(err.message).toContain('shoeSize');
    expect(err.message).toContain('email, phone');
  });
});

describe('codecs', () => {
  const ctx = testContext({ env: { user: 'alice', text: 'a b/ü' }, secrets: { PW: 'p@ss:w0rd' } });

  it.each([
    ["{{$.base64.encode('hello')}}", 'aGVsbG8='],
    ["{{$.base64.decode('aGVsbG8=')}}", 'hello'],
    ["{{$.base64.decode('aGVsbG8')}}", 'hello'],
    ["{{$.base64.decode('-_8')}}", Buffer.from('fbff', 'hex').toString('utf8')],
    ["{{$.hex.encode('hi ü')}}", '686920c3bc'],
    ["{{$.hex.decode('686920C3BC')}}", 'hi ü'],
    ["{{$.url.encode('a b&c=d/é')}}", 'a%20b%26c%3Dd%2F%C3%A9'],
    ["{{$.url.decode('a%20b%26c')}}", 'a b&c'],
    ['{{$.base64.encode("double \\"quoted\\"")}}', Buffer.from('double "quoted"').toString('base64')],
    ["{{$.base64.encode('')}}", ''],
  ])('%s -> %s', async (template, expected) => {
    expect(await render(template, ctx)).toBe(expected);
  });

  it('renders nested references in the argument first', async () => {
    expect(await render("Basic {{$.base64.encode('{{env.user}}:{{secret.PW}}')}}", ctx)).toBe(`Basic ${Buffer.from('alice:p@ss:w0rd').toString('base64')}`);
    expect(renderString("/q?x={{$.url.encode('{{env.text}}')}}", ctx)).toBe('/q?x=a%20b%2F%C3%BC');
    // A codec inside a codec (the inner argument in the other kind of quotes).
    expect(await render(`{{$.base64.decode('{{$.base64.encode("{{env.user}}")}}')}}`, ctx)).toBe('alice');
  });

  it('input that cannot be decoded is E_TEMPLATE_SYNTAX without the input in the message', async () => {
    const secretCtx = testContext({ secrets: { BAD: 'zz-not-hex' } });
    for (const t of ["{{$.hex.decode('{{secret.BAD}}')}}", "{{$.url.decode('%E0%A4%A')}}", "{{$.base64.decode('***')}}"]) {
      const err = await rejection(() => render(t, secretCtx));
      expect(err.code, t).toBe('E_TEMPLATE_SYNTAX');
      expect(err.message).not.toContain('zz-not-hex');
    }
  });
});
