import { describe, expect, it } from 'vitest';
import {
  FAKER_NAMES,
  holdsReference,
  mapRefs,
  parseExpr,
  parseTemplate,
  refersTo,
  refSource,
  refsOf,
  type Expr,
  type TemplatePart,
} from '../../src/graph/index.js';

function onlyRef(text: string): Expr {
  const parts = parseTemplate(text);
  expect(parts).toHaveLength(1);
  const [p] = parts;
  if (p.kind !== 'ref') throw new Error(`expected a reference, got ${JSON.stringify(p)}`);
  return p.expr;
}

function onlyError(text: string): Extract<TemplatePart, { kind: 'error' }> {
  const errors = parseTemplate(text).filter((p) => p.kind === 'error');
  expect(errors).toHaveLength(1);
  return errors[0];
}

describe('parseTemplate: every form of spec 2.8', () => {
  it.each<[string, Expr]>([
    ['{{$.uuid}}', { kind: 'uuid' }],
    ['{{$.now}}', { kind: 'now', offsetMs: 0 }],
    ['{{$.now + 1h}}', { kind: 'now', offsetMs: 3_600_000 }],
    ['{{$.now - 30m}}', { kind: 'now', offsetMs: -1_800_000 }],
    ['{{$.now+2d}}', { kind: 'now', offsetMs: 2 * 86_400_000 }],
    ['{{ $.now + 500ms }}', { kind: 'now', offsetMs: 500 }],
    ['{{$.faker.email}}', { kind: 'faker', method: 'email', name: 'email' }],
    ['{{$.faker.phone}}', { kind: 'faker', method: 'phone', name: 'phone' }],
    ['{{env.baseUrl}}', { kind: 'env', name: 'baseUrl' }],
    ['{{secret.API_KEY}}', { kind: 'secret', name: 'API_KEY' }],
    ['{{order.id}}', { kind: 'scoped', scope: 'order', field: 'id', path: [] }],
    ['{{ order.id }}', { kind: 'scoped', scope: 'order', field: 'id', path: [] }],
    ['{{order[2].id}}', { kind: 'scoped', scope: 'order', index: 2, field: 'id', path: [] }],
    ['{{order[-2].id}}', { kind: 'scoped', scope: 'order', index: -2, field: 'id', path: [] }],
    ['{{admin.profile.email}}', { kind: 'scoped', scope: 'admin', field: 'profile', path: ['email'] }],
    ['{{line-item.sku_code}}', { kind: 'scoped', scope: 'line-item', field: 'sku_code', path: [] }],
  ])('%s', (text, expected) => {
    expect(onlyRef(text)).toEqual(expected);
  });

  it('keeps text around references, with offsets', () => {
    const parts = parseTemplate('/orders/{{order.id}}/items/{{item[1].id}}?x=1');
    expect(parts.map((p) => p.kind)).toEqual(['text', 'ref', 'text', 'ref', 'text']);
    expect(parts[1]).toMatchObject({ raw: '{{order.id}}', offset: 8 });
    expect(parts[3]).toMatchObject({ raw: '{{item[1].id}}', offset: 27 });
    expect(parts[4]).toEqual({ kind: 'text', text: '?x=1' });
  });

  it('a string without references is one text part; an empty string none', () => {
    expect(parseTemplate('/health')).toEqual([{ kind: 'text', text: '/health' }]);
    expect(parseTemplate('')).toEqual([]);
    expect(parseTemplate('a } b }} c')).toEqual([{ kind: 'text', text: 'a } b }} c' }]);
  });

  it('codec arguments hold nested references, found by refsOf', () => {
    const expr = onlyRef("{{$.base64.encode('{{env.user}}:{{secret.PASSWORD}}')}}");
    expect(expr).toMatchObject({ kind: 'codec', codec: 'base64', op: 'encode' });
    if (expr.kind !== 'codec') throw new Error('codec expected');
    expect(expr.arg.map((p) => p.kind)).toEqual(['ref', 'text', 'ref']);
    const all = [...refsOf(parseTemplate("Basic {{$.base64.encode('{{env.user}}:{{secret.PASSWORD}}')}}"))];
    expect(all.map((e) => e.kind)).toEqual(['codec', 'env', 'secret']);
  });

  it('codecs: hex, url, decode, double quotes, escaped quotes', () => {
    expect(onlyRef("{{$.hex.encode('ab')}}")).toMatchObject({ codec: 'hex', op: 'encode', arg: [{ kind: 'text', text: 'ab' }] });
    expect(onlyRef('{{$.url.decode("a%20b")}}')).toMatchObject({ codec: 'url', op: 'decode', arg: [{ kind: 'text', text: 'a%20b' }] });
    expect(onlyRef("{{$.url.encode('it\\'s')}}")).toMatchObject({ arg: [{ kind: 'text', text: "it's" }] });
    // `}}` inside the quoted argument does not close the reference
    expect(onlyRef("{{$.base64.encode('a}}b')}}")).toMatchObject({ arg: [{ kind: 'text', text: 'a}}b' }] });
  });
});

describe('parseTemplate: errors never throw and never swallow the rest', () => {
  it.each([
    ['{{$.random}}', /does not exist/],
    ['{{$.random.int}}', /does not exist/],
    ['{{$.timestamp}}', /does not exist/],
    ['{{$.date}}', /does not exist/],
    ['{{$.uuid()}}', /not a known builtin/],
    ['{{$.now + 1 week}}', /not a known builtin/],
    ['{{}}', /empty reference/],
    ['{{order}}', /not a reference of the form scope\.field/],
    ['{{order id}}', /not a reference/],
    ['{{env.a.b}}', /env takes one name/],
    ['{{secret[1].X}}', /secret takes one name/],
    ['{{order[0].id}}', /count from 1/],
    ['{{order[-0].id}}', /count from 1 \(the first\) or from -1 \(the newest\)/],
    ["{{$.base64.encode('a' + 'b')}}", /not a known builtin/],
    ['{{$.faker.emial}}', /^"\$\.faker\.emial": unknown faker "emial" \(did you mean email\?\)$/],
    ['{{$.faker.first_nme}}', /unknown faker "first_nme" \(did you mean firstName\?\)/],
    ['{{$.faker.shoeSize}}', /unknown faker "shoeSize"; known: email, phone, name, firstName, .*, ipv4$/],
    ['{{$.faker.internet.email}}', /unknown faker "internet\.email"; known: email, /],
  ])('%s', (text, message) => {
    expect(onlyError(text).message).toMatch(message);
  });

  it('every faker name the runtime generates parses, in any case and with or without _', () => {
    for (const name of FAKER_NAMES) expect(onlyRef(`{{$.faker.${name}}}`)).toEqual({ kind: 'faker', method: name, name });
    for (const [spelling, name] of [
      ['first_name', 'firstName'],
      ['FIRSTNAME', 'firstName'],
      ['Ip_V4', 'ipv4'],
    ]) {
      expect(onlyRef(`{{$.faker.${spelling}}}`)).toEqual({ kind: 'faker', method: spelling, name });
    }
  });

  it('an unclosed {{ is an error part with an excerpt, text before it kept', () => {
    const parts = parseTemplate('/orders/{{order.id');
    expect(parts[0]).toEqual({ kind: 'text', text: '/orders/' });
    expect(parts[1]).toMatchObject({ kind: 'error', raw: '{{order.id', offset: 8 });
    expect((parts[1] as { message: string }).message).toContain('unclosed');
    expect((parts[1] as { message: string }).message).toContain('{{order.id');
  });

  it('a stray quote spoils one reference, not the next', () => {
    const parts = parseTemplate("{{order.id's}} then {{user.id}}");
    expect(parts.map((p) => p.kind)).toEqual(['error', 'text', 'ref']);
    expect(parts[2]).toMatchObject({ raw: '{{user.id}}' });
  });

  it('errors inside codec arguments are error parts of the argument', () => {
    const expr = parseExpr("$.base64.encode('{{$.random}}')");
    if (typeof expr === 'string' || expr.kind !== 'codec') throw new Error('codec expected');
    expect(expr.arg[0]).toMatchObject({ kind: 'error' });
  });
});

describe('mapRefs, refersTo, refSource: templates read by the parser where patterns were', () => {
  it('rewrites references, spaces and codec arguments included, and leaves text and literals alone', () => {
    const rename = (text: string) => mapRefs(text, (r) => (r.expr.kind === 'scoped' && r.expr.scope === 'item' ? r.raw.replace('item', 'copy') : undefined));
    expect(rename('/items/{{ item.id }}/{{item[2].id}}')).toBe('/items/{{ copy.id }}/{{copy[2].id}}');
    expect(rename("{{$.base64.encode('{{item.id}}:{{env.x}}')}}")).toBe("{{$.base64.encode('{{copy.id}}:{{env.x}}')}}");
    // `{{'{{'}}item.id}}` is the text `{{item.id}}`, not a reference
    expect(rename("{{'{{'}}item.id}} and {{items.id}}")).toBe("{{'{{'}}item.id}} and {{items.id}}");
    expect(mapRefs("/files/{{$.url.encode('a}b/c')}}/meta", () => 'x')).toBe('/files/x/meta');
  });

  it('refersTo reads the scope; refSource the inside of one reference', () => {
    expect(refersTo('/items/{{ item.id }}', 'item')).toBe(true);
    expect(refersTo('/items/{{item[2].id}}', 'item')).toBe(true);
    expect(refersTo("/x/{{$.url.encode('{{item.id}}')}}", 'item')).toBe(true);
    expect(refersTo("/items/{{'{{'}}item.id}}", 'item')).toBe(false);
    expect(refersTo('/items/{{items.id}}', 'item')).toBe(false);
    expect(refSource('{{ product.id }}')).toBe('product.id');
    expect(refSource('order.create')).toBe('order.create');
  });
});

describe('holdsReference: one answer for the graph, the runner and explore', () => {
  it('a `{{` in a string at any depth, or a !secret; plain values and look-alikes do not', () => {
    const secret = { __reqflow: 'secret', name: 'PW' };
    expect(holdsReference('{{env.x}}')).toBe(true);
    expect(holdsReference({ a: [{ b: 'x {{order.id}}' }] })).toBe(true);
    expect(holdsReference({ login: { password: secret } })).toBe(true);
    expect(holdsReference({ a: ['{ {not}}', 1, null, true], name: 'PW' })).toBe(false);
  });
});
