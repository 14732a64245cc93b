// `flow run --reporter json|junit|markdown|github` on a run with passes, failures and a skip
// (test/fixtures/report/shop against the recording shop server): golden files pin each report,
// timings, ports, dates and the host name replaced by placeholders. The secret token goes out
// in a header and in a request body, and the server echoes it in a response body: no report
// holds it. Set UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startShopServer, type ShopServer } from '../fixtures/vitest/server.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { parseJUnit } from '../vitest/helpers.js';
import { freePort } from '../vitest/pets-repo.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/report/', import.meta.url));
const GOLDEN = path.join(FIXTURE, 'golden');
const SCHEMA = fileURLToPath(new URL('../../schemas/run-report.schema.json', import.meta.url));
const out = mkdtempSync(path.join(tmpdir(), 'reqflow-reports-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  server: ShopServer;
  token: string;
}

/** `flow run <args>` on the shop fixture, against a fresh server with a fresh token. */
async function flowRun(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const token = `tok-${randomBytes(9).toString('hex')}`;
  const server = await startShopServer(token);
  try {
    const rec = recordedIO({ cwd: FIXTURE, env: { FLOW_SECRET_SHOP_TOKEN: token, ...env } });
    const code = await main(['run', '-p', 'shop', '--var', `baseUrl=${server.url}`, ...args], rec.io);
    return { code, stdout: rec.out(), stderr: rec.err(), server, token };
  } finally {
    await server.close();
  }
}

/** The golden file's text; written first when UPDATE_GOLDEN is set. */
function golden(name: string, actual: string): string {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, actual);
  return readFileSync(file, 'utf8');
}

const ports = (text: string, url: string) => text.split(url).join('http://127.0.0.1:<port>');

function placeholders(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => placeholders(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeholders(v, k)]));
  if (key === 'ms' && typeof value === 'number') return '<ms>';
  if (key === 'startedAt' || key === 'date') return `<${key}>`;
  return value;
}

let run: Run;
const files = { json: path.join(out, 'report.json'), junit: path.join(out, 'junit/report.xml'), markdown: path.join(out, 'report.md') };

beforeAll(async () => {
  run = await flowRun([
    '--all',
    ...['default', 'json', 'junit', 'markdown'].flatMap((r) => ['--reporter', r]),
    ...Object.entries(files).flatMap(([name, file]) => ['--output-file', `${name}=${file}`]),
  ]);
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe('flow run reports of a run with passes, failures and a skip', () => {
  it('ran as the terminal says: 4 passed, 2 failed, 1 skipped, exit 1', () => {
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^4 passed, 2 failed, 1 skipped \(\d+ ms\)$/m);
  });

  it('json: the golden document, valid against schemas/run-report.schema.json', () => {
    const text = readFileSync(files.json, 'utf8');
    const doc = JSON.parse(text);
    const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, formats: { 'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ } });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')));
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc).toMatchObject({ format: 'reqflow-run', version: 1, summary: { passed: 4, failed: 2, skipped: 1 } });
    const normal = `${JSON.stringify(placeholders(JSON.parse(ports(text, run.server.url))), null, 2)}\n`;
    expect(normal).toBe(golden('run.json', normal));
  });

  it('junit: the golden XML', () => {
    const xml = readFileSync(files.junit, 'utf8');
    const normal = ports(xml, run.server.url)
      .replace(/ time="[\d.]+"/g, ' time="<s>"')
      .replace(/ timestamp="[^"]+"/g, ' timestamp="<time>"')
      .replace(/ hostname="[^"]+"/g, ' hostname="<host>"')
      .replace(/\(\d+ ms\)/g, '(<ms> ms)');
    expect(normal).toBe(golden('run.xml', normal));
  });

  it('markdown: the golden summary, with the Mermaid graph of what ran coloured by outcome', () => {
    const md = readFileSync(files.markdown, 'utf8');
    const normal = ports(md, run.server.url).replace(/\b\d+ ms\b/g, '<ms> ms');
    expect(normal).toBe(golden('run.md', normal));
    expect(md).toContain('  class op_invoice__create,op_product__stock failed\n');
    expect(md).toContain('  class op_invoice__send skipped\n');
  });

  it('the secret, sent in a header and a body and echoed back by the server, is in no report', () => {
    const received = run.server.received.find((r) => r.path === '/invoices')!;
    expect(received.authorization).toBe(`Bearer ${run.token}`);
    expect(JSON.parse(received.body)).toMatchObject({ signature: run.token });
    const reports: Record<string, string> = {
      ...Object.fromEntries(Object.entries(files).map(([k, f]) => [k, readFileSync(f, 'utf8')])),
      stdout: run.stdout,
      stderr: run.stderr,
    };
    for (const [where, text] of Object.entries(reports)) expect(text.includes(run.token), `token in ${where}`).toBe(false);
    const doc = JSON.parse(reports.json);
    const invoice = doc.operations.find((o: { id: string }) => o.id === 'invoice.create');
    expect(invoice.exchanges[0].request.headers.Authorization).toBe('Bearer ***');
    expect(invoice.exchanges[0].request.body).toContain('"signature":"***"');
    expect(invoice.exchanges[0].response.body).toContain('"seen_authorization":"Bearer ***"');
  });
});

describe('choosing reporters', () => {
  it('a report on stdout is alone there: json without --output-file prints only the document', async () => {
    const r = await flowRun(['order.get', '--reporter', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ asked: ['order.get'], summary: { passed: 4, failed: 0, skipped: 0 } });
  });

  it.each([
    [['--reporter', 'jsn'], 'unknown reporter "jsn" (did you mean json?): use default, json, junit, markdown, github'],
    [['--reporter', 'json', '--reporter', 'default'], 'the json report and default would share stdout: give --output-file json=<path>'],
    [['--output-file', 'junit=x.xml'], '--output-file junit=…: no --reporter junit was given'],
    [['--reporter', 'junit', '--output-file', 'junit'], '--output-file takes <reporter>=<path>; got "junit"'],
    [['--reporter', 'github', '--output-file', 'github=x'], '--output-file: the github reporter writes to stdout only (files: json, junit, markdown)'],
  ])('%j is a usage error (exit 2), before anything is sent', async (args, message) => {
    const r = await flowRun(['order.get', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`flow run: ${message}\n`);
    expect(r.server.received).toEqual([]);
  });

  it('github: an ::error annotation per failure at its YAML line, and the markdown report appended to $GITHUB_STEP_SUMMARY', async () => {
    const summary = path.join(out, 'step-summary.md');
    writeFileSync(summary, 'earlier step\n');
    const r = await flowRun(['--all', '--reporter', 'default', '--reporter', 'github'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: path.dirname(FIXTURE.replace(/\/$/, '')),
    });
    expect(r.code).toBe(1);
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(2);
    // paths relative to the workspace (the checkout), as GitHub wants them; newlines as %0A
    expect(annotations[0]).toMatch(
      /^::error file=report\/shop\/resources\/invoices\.yaml,line=11,col=5,title=invoice\.create%3A E_STATUS_MISMATCH::E_STATUS_MISMATCH: expected 201, got 400: .*%0A {2}at shop\/resources\/invoices\.yaml:11:5 \(invoice\.create\)%0A/,
    );
    expect(annotations[1]).toMatch(
      /^::error file=report\/shop\/resources\/products\.yaml,line=\d+,col=\d+,title=product\.stock%3A E_ASSERT_FAILED::E_ASSERT_FAILED: \$\.data\.available > 100 failed: expected > 100, actual 3%0A/,
    );
    // the default lines are there too
    expect(r.stdout).toMatch(/^4 passed, 2 failed, 1 skipped/m);
    const written = readFileSync(summary, 'utf8');
    expect(written).toMatch(/^earlier step\n## reqflow run: shop\n/);
    expect(written).toContain('```mermaid\nflowchart LR\n');
    expect(r.stdout + written).not.toContain(r.token);
  });

  it('every reporter writes to a file: the terminal still gets the failures, the summary line and each path', async () => {
    const xml = path.join(out, 'only/junit.xml');
    const md = path.join(out, 'only/report.md');
    const r = await flowRun(['--all', '--reporter', 'junit', '--reporter', 'markdown', '--output-file', `junit=${xml}`, '--output-file', `markdown=${md}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^4 passed, 2 failed, 1 skipped \(\d+ ms\)$/m);
    expect(r.stdout).toMatch(/^  ✖ invoice\.create  E_STATUS_MISMATCH  shop\/resources\/invoices\.yaml:\d+:\d+$/m);
    expect(r.stdout.endsWith(`junit report: ${path.relative(FIXTURE, xml)}\nmarkdown report: ${path.relative(FIXTURE, md)}\n`)).toBe(true);
    // no request lines: those are the default reporter's
    expect(r.stdout).not.toContain('POST ');
    expect(parseJUnit(readFileSync(xml, 'utf8'))[0]).toMatchObject({ failures: 2 });
  });

  it('a report that cannot be written is said on stderr, and the run exits 1', async () => {
    const blocker = path.join(out, 'a-file');
    writeFileSync(blocker, '');
    const r = await flowRun(['order.get', '--reporter', 'junit', '--output-file', `junit=${blocker}/r.xml`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^flow run: cannot write the junit report to .*a-file\/r\.xml: /m);
  });

  it('a report is written whole, by a rename: a link in its place is refused, and what it points to is left alone', async () => {
    const elsewhere = path.join(out, 'elsewhere.xml');
    writeFileSync(elsewhere, 'not yours');
    const link = path.join(out, 'linked.xml');
    symlinkSync(elsewhere, link);
    const r = await flowRun(['order.get', '--reporter', 'junit', '--output-file', `junit=${link}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^flow run: cannot write the junit report to .*linked\.xml: .*linked\.xml is a symbolic link, not a regular file: not written$/m);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not yours');
    // and no temporary file is left beside it
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('warnings on a result (a contract check in warn mode)', () => {
  it('github: a ::warning at the operation; json: the warnings of each operation', async () => {
    const pets = fileURLToPath(new URL('../fixtures/contract/pets/', import.meta.url));
    const port = await freePort();
    const json = path.join(out, 'pets.json');
    const rec = recordedIO({ cwd: pets, env: { PORT: String(port), PETS_BREAK: 'missing-field', GITHUB_WORKSPACE: pets } });
    const server = ['--server', 'node api/main.js', '--server-url', `http://127.0.0.1:${port}/v1/health`];
    const code = await main(
      [
        'run',
        '--all',
        ...server,
        '--openapi',
        'openapi.yaml',
        '--contract',
        'warn',
        '--reporter',
        'github',
        '--reporter',
        'json',
        '--output-file',
        `json=${json}`,
      ],
      rec.io,
    );
    expect(code, rec.err()).toBe(0);
    expect(rec.out()).toMatch(
      /^::warning file=resources\/pets\.yaml,line=\d+,col=\d+,title=pet\.get%3A W_CONTRACT::W_CONTRACT: the 200 response of GET \/pets\/\{petId\} breaks openapi\.yaml \(1 violation\)%0A/m,
    );
    expect(rec.out()).not.toContain('::error');
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    const pet = doc.operations.find((o: { id: string }) => o.id === 'pet.get');
    expect(pet.warnings).toEqual([{ code: 'W_CONTRACT', message: expect.stringContaining('/name: expected a required property, got missing') }]);
  });
});

describe('the JUnit of flow run and of the Vitest plugin show the same tests', () => {
  it('testcase names, classnames, skips and properties match a real vitest run of the same project', async () => {
    const { ensureBuilt, runVitest } = await import('../vitest/helpers.js');
    await ensureBuilt();
    const token = `tok-${randomBytes(9).toString('hex')}`;
    const server = await startShopServer(token);
    const vitestXml = path.join(out, 'vitest-junit.xml');
    try {
      const v = await runVitest(FIXTURE, ['run', 'shop/flow.yaml', '--reporter=junit', `--outputFile.junit=${vitestXml}`], {
        FLOW_VAR_baseUrl: server.url,
        FLOW_SECRET_SHOP_TOKEN: token,
      });
      expect(v.code, v.stderr).toBe(1);
    } finally {
      await server.close();
    }
    const shape = (xml: string) =>
      parseJUnit(xml).flatMap((s) =>
        s.cases.map((c) => ({
          suite: s.name,
          classname: c.classname,
          name: c.name,
          skipped: c.skipped,
          properties: c.properties,
          // the same text but for the server's port and the timings
          failure: c.failure && { type: c.failure.type, message: c.failure.message.replace(/127\.0\.0\.1:\d+/g, '<host>').replace(/\(\d+ ms\)/g, '(<ms> ms)') },
          systemOut: c.systemOut.trim(),
        })),
      );
    const ours = shape(readFileSync(files.junit, 'utf8'));
    // (the names and their order are pinned by the golden run.xml and by test/vitest/junit.test.ts)
    expect(ours.map((c) => c.name)).toHaveLength(7);
    expect(ours).toEqual(shape(readFileSync(vitestXml, 'utf8')));
  }, 180_000);
});
