// Every part of a contract check is untrusted input, the description as much as the response,
// and each is bounded: patterns run in linear time, one response's check has a depth, size and
// time budget (E_CONTRACT_LIMIT past it), and the description and its `$ref`s are regular
// files of bounded size and depth (E_CONTRACT_LOAD otherwise), never a FIFO or a device that
// would hang the read. Each case below hung, ran for minutes or crashed before.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkResponse, loadContract, Schemas, violationLine } from '../../src/contract/index.js';
import { readDescription } from '../../src/openapi/index.js';
import { createResponse } from '../../src/http/response.js';

const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function writeDescription(schema: object, extra: object = {}): string {
  const file = path.join(dir, `d${n++}.json`);
  const doc = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
    ...extra,
  };
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** `maxMs`: the check's time budget (the default one unless given). */
async function check(schema: object, body: string, extra: object = {}, maxMs?: number) {
  const desc = await readDescription(writeDescription(schema, extra));
  const res = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body });
  return checkResponse(desc, new Schemas(desc.doc, desc.version, { maxMs }), 'GET', 'http://h/x', res, (x) => x).violations.map(violationLine);
}

/** The error a promise (or a function) ends with, and how long it took. */
async function timed(work: () => unknown): Promise<{ err: unknown; ms: number }> {
  const t0 = performance.now();
  try {
    await work();
    return { err: undefined, ms: performance.now() - t0 };
  } catch (err) {
    return { err, ms: performance.now() - t0 };
  }
}

describe('patterns run in linear time', () => {
  test("'^(a+)+$' against 34 a's and a b is a violation found at once, not minutes of backtracking", async () => {
    const t0 = performance.now();
    const lines = await check({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }, JSON.stringify({ s: `${'a'.repeat(34)}b` }));
    expect(lines).toEqual([`/s: expected match pattern "^(a+)+$" (pattern), got "${'a'.repeat(34)}b"`]);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('patternProperties too; an ordinary pattern still matches', async () => {
    const schema = {
      type: 'object',
      patternProperties: { '^(x+x+)+y$': { type: 'integer' } },
      properties: { id: { type: 'string', pattern: '^\\d{3}-[a-z]+$' } },
    };
    const key = `${'x'.repeat(40)}y`;
    expect(await check(schema, JSON.stringify({ [key]: 'no', id: '123-abc', [`${'x'.repeat(5000)}`]: 'z' }))).toEqual([
      `/${key}: expected type integer, got "no"`,
    ]);
    expect(await check(schema, JSON.stringify({ id: '12-abc' }))).toEqual(['/id: expected match pattern "^\\d{3}-[a-z]+$" (pattern), got "12-abc"']);
  });

  test('a lookahead, which RE2 cannot run, is E_CONTRACT_PATTERN saying so', async () => {
    const { err } = await timed(() => check({ type: 'string', pattern: '^(?=.*\\d).+$' }, '"abc1"'));
    expect(err).toMatchObject({ code: 'E_CONTRACT_PATTERN', message: expect.stringContaining('cannot be matched in linear time: it has a lookahead') });
  });

  test('a named backreference is refused, not matched as the letters "k<x>"', async () => {
    const { err } = await timed(() => check({ type: 'string', pattern: '^(?<x>a)\\k<x>$' }, '"ak<x>"'));
    expect(err).toMatchObject({ code: 'E_CONTRACT_PATTERN', message: expect.stringContaining('backreference `\\k<x>`') });
  });

  test('a{0,1001} is refused for its count, not called a lookaround', async () => {
    const { err } = await timed(() => check({ type: 'string', pattern: '^a{0,1001}$' }, '"a"'));
    expect(err).toMatchObject({ code: 'E_CONTRACT_PATTERN', message: expect.stringContaining('repeats more than 1000 times') });
    expect((err as Error).message).not.toMatch(/lookaround|lookahead/);
  });

  test('\\s, \\S and . mean what they mean in JavaScript: NBSP, BOM, U+2028 and \\r', async () => {
    const schema = {
      type: 'object',
      properties: { space: { type: 'string', pattern: '^\\s+$' }, word: { type: 'string', pattern: '^\\S+$' }, line: { type: 'string', pattern: '^a.b$' } },
    };
    // spaces to JavaScript: RE2's own \s refused them
    expect(await check(schema, JSON.stringify({ space: '\u00a0\ufeff\u2028' }))).toEqual([]);
    // no match in JavaScript: RE2's own \S and . let them through
    expect(await check(schema, JSON.stringify({ word: 'a\u00a0b' }))).toHaveLength(1);
    expect(await check(schema, JSON.stringify({ line: 'a\rb' }))).toHaveLength(1);
    expect(await check(schema, JSON.stringify({ line: 'a\u2028b' }))).toHaveLength(1);
  });
});

describe("one response's check has a budget", () => {
  test('uniqueItems over 200k objects stops at the time budget with E_CONTRACT_LIMIT', async () => {
    const body = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i })));
    const { err, ms } = await timed(() => check({ type: 'array', uniqueItems: true }, body));
    expect(err).toMatchObject({
      code: 'E_CONTRACT_LIMIT',
      message: expect.stringMatching(/took more than 1000 ms: stopped; it is not checked against the schema at \/paths/),
    });
    expect(ms).toBeLessThan(10_000);
  });

  test('a recursive schema that branches on every level (anyOf of two $refs) stops at the budget too', async () => {
    // each level tries both branches and both fail at the bottom (no `z`): 2^40 paths
    let body = '1';
    for (let i = 0; i < 40; i++) body = `{"n":${body}}`;
    const T = { type: 'object', required: ['z'], properties: { n: { anyOf: [{ $ref: '#/components/schemas/T' }, { $ref: '#/components/schemas/T' }] } } };
    const { err, ms } = await timed(() => check({ $ref: '#/components/schemas/T' }, body, { components: { schemas: { T } } }));
    expect(err).toMatchObject({ code: 'E_CONTRACT_LIMIT', message: expect.stringContaining('took more than 1000 ms') });
    expect(ms).toBeLessThan(10_000);
  });

  test('a response 20k levels deep is E_CONTRACT_LIMIT, not a stack overflow', async () => {
    const body = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const { err } = await timed(() =>
      check({ $ref: '#/components/schemas/L' }, body, { components: { schemas: { L: { type: 'array', items: { $ref: '#/components/schemas/L' } } } } }),
    );
    expect(err).toMatchObject({ code: 'E_CONTRACT_LIMIT', message: expect.stringContaining('nests deeper than 512 levels') });
  });

  // the outcome must not hang on the machine's load: 2,000 items compared pairwise took over the
  // default second on a busy 2-core runner, so the budget here is one no load reaches
  test('within the budget, a large list is checked as before', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ id: i }));
    expect(await check({ type: 'array', uniqueItems: true }, JSON.stringify(items), {}, 60_000)).toEqual([]);
    items.push({ id: 7 });
    expect(await check({ type: 'array', uniqueItems: true }, JSON.stringify(items), {}, 60_000)).toEqual([
      '(body): expected NOT have duplicate items (items ## 7 and 2000 are identical) (uniqueItems), got [{"id":0},{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6},{"id":7},{"id":…',
    ]);
  });

  test("mode 'warn' reports a response past the budget as W_CONTRACT_LIMIT, and 'fail' fails with E_CONTRACT_LIMIT", async () => {
    const file = writeDescription({ type: 'array' });
    const response = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: `${'['.repeat(600)}${']'.repeat(600)}` });
    const checked = { operation: 'x.get', method: 'GET' as const, url: 'http://h/x', response, redact: (v: unknown) => v };
    expect((await loadContract(file, 'warn')).check(checked)).toEqual([
      { code: 'W_CONTRACT_LIMIT', message: expect.stringMatching(/^the response nests deeper than 512 levels; .*\(.*d\d+\.json\)$/) },
    ]);
    const { err } = await timed(() => loadContract(file, 'fail').then((c) => c.check(checked)));
    expect(err).toMatchObject({ code: 'E_CONTRACT_LIMIT' });
  });
});

describe('the description and its $refs are regular files of bounded size and depth', () => {
  const fifo = path.join(dir, 'schema.fifo');
  execFileSync('mkfifo', [fifo]);

  test('a $ref to a FIFO or to /dev/zero is E_CONTRACT_LOAD at once (the read never starts)', async () => {
    for (const target of [fifo, '/dev/zero']) {
      const file = writeDescription({ $ref: `${target}#/Pet` });
      const { err, ms } = await timed(() => readDescription(file));
      expect(err, target).toMatchObject({ code: 'E_CONTRACT_LOAD', message: expect.stringMatching(/is a (named pipe \(FIFO\)|device), not a regular file/) });
      expect(ms).toBeLessThan(5000);
    }
  });

  test('the description itself a FIFO is E_CONTRACT_LOAD, through loadContract as through readDescription', async () => {
    const { err } = await timed(() => loadContract(fifo));
    expect(err).toMatchObject({ code: 'E_CONTRACT_LOAD', message: expect.stringContaining('named pipe (FIFO)') });
  });

  test('a file over 64 MiB is refused before it is read', async () => {
    const big = path.join(dir, 'big.json');
    writeFileSync(big, '{}');
    truncateSync(big, 65 * 1024 * 1024); // sparse: costs no disk
    const { err, ms } = await timed(() => readDescription(writeDescription({ $ref: `${big}#/Pet` })));
    expect(err).toMatchObject({ code: 'E_CONTRACT_LOAD', message: expect.stringContaining('larger than the limit of 64 MiB') });
    expect(ms).toBeLessThan(5000);
  });

  test('a JSON description 10k levels deep is E_CONTRACT_LOAD in well under a second, not a stack overflow', async () => {
    const file = path.join(dir, 'deep.json');
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    writeFileSync(file, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"x-deep":${deep}}`);
    const { err, ms } = await timed(() => readDescription(file));
    expect(err).toMatchObject({ code: 'E_CONTRACT_LOAD', message: expect.stringMatching(/nest(ing|ed) (exceeded maxDepth|deeper than) \(?100/) });
    expect(ms).toBeLessThan(2000);
  });
});
