// `flow secret`: arguments, help, exit codes, and the hidden prompt on a terminal. The
// keychain here is a Map behind the Keychain interface; keychain.test.ts uses the real one.
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { secretCommand } from '../../../src/cli/commands/secret.js';
import { main } from '../../../src/cli/main.js';
import type { Keychain } from '../../../src/runtime/secrets/index.js';
import { recordedIO, tempProject } from './cli-io.js';

function mapKeychain(): Keychain & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get: async (s, a) => items.get(`${s}/${a}`) ?? null,
    set: async (s, a, v) => void items.set(`${s}/${a}`, v),
    delete: async (s, a) => items.delete(`${s}/${a}`),
    list: async (s) => [...items.keys()].filter((k) => k.startsWith(`${s}/`)).map((k) => k.slice(s.length + 1)),
  };
}

/** A terminal on stdin: keys arrive as chunks; raw mode is recorded. */
class FakeTTY extends PassThrough {
  readonly isTTY = true;
  rawModes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
}

const dir = tempProject('cmd-demo');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], options: { stdin?: NodeJS.ReadableStream | string; keychain?: Keychain; cwd?: string } = {}) {
  const rec = recordedIO({ cwd: options.cwd ?? dir, stdin: options.stdin });
  const code = await secretCommand({ keychain: () => options.keychain ?? mapKeychain() })(args, rec.io);
  return { code, out: rec.out(), err: rec.err() };
}

describe('flow secret: arguments', () => {
  it('--help explains why the value is never an argument', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('flow secret <set|get|delete|list>');
    expect(r.out).toContain('process list');
    expect(r.out).toContain('FLOW_SECRET_<NAME>');
    // Reachable through the dispatcher too.
    const rec = recordedIO({ cwd: dir });
    expect(await main(['secret', '-h'], rec.io)).toBe(0);
    expect(rec.out()).toContain('Usage: flow secret');
  });

  it.each([
    [[], 'a subcommand is required'],
    [['rotate', 'X'], 'unknown subcommand "rotate"'],
    [['set'], 'NAME is required'],
    [['get', 'bad.name'], '"bad.name" is not a secret name'],
    [['set', 'TOKEN', 'the-value'], 'never taken from the command line'],
    [['delete', 'A', 'B'], 'unexpected argument "B"'],
    [['list', 'X'], 'unexpected argument "X"'],
    [['get', 'X', '--nope'], "Unknown option '--nope'"],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('Usage: flow secret');
    expect(r.err).not.toContain('the-value');
  });

  it('a directory without flow.yaml is exit 2, naming it', async () => {
    const r = await run(['get', 'X', '--project', `${dir}/nowhere`]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('E_PROJECT_NOT_FOUND');
  });

  it('stores under reqflow:<name from flow.yaml>; drops one trailing newline from stdin', async () => {
    const keychain = mapKeychain();
    expect((await run(['set', 'A'], { stdin: 'line1\nline2\r\n', keychain })).code).toBe(0);
    expect(keychain.items.get('reqflow:cmd-demo/A')).toBe('line1\nline2');
    expect((await run(['set', 'B'], { stdin: 'no-newline', keychain })).code).toBe(0);
    expect(keychain.items.get('reqflow:cmd-demo/B')).toBe('no-newline');
    expect((await run(['list'], { keychain })).out).toBe('A\nB\n');
  });
});

describe('flow secret set: the hidden prompt', () => {
  async function typed(keys: string[]) {
    const tty = new FakeTTY();
    const keychain = mapKeychain();
    const pending = run(['set', 'PW'], { stdin: tty, keychain });
    for (const k of keys) {
      await new Promise((r) => setImmediate(r));
      tty.write(k);
    }
    const result = await pending;
    return { ...result, tty, stored: keychain.items.get('reqflow:cmd-demo/PW') };
  }

  it('reads with echo off: nothing typed appears in any output', async () => {
    const r = await typed(['s3', 'cr', 'et-ü', '\r']);
    expect(r.code).toBe(0);
    expect(r.stored).toBe('s3cret-ü');
    expect(r.err).toBe('Value for PW (input hidden): \n');
    expect(r.out).not.toContain('s3');
    expect(r.tty.rawModes).toEqual([true, false]);
  });

  it('Backspace and Ctrl-U edit; arrow keys are ignored', async () => {
    const r = await typed(['abX', '\u007f', '\u001b[D', 'c', '\u0015', 'fresh', '\n']);
    expect(r.stored).toBe('fresh');
  });

  it('keys that arrive together in one chunk are edited the same way', async () => {
    expect((await typed(['abX\u007f\u001b[1;5Dc\u001bOA\u001bx!\r'])).stored).toBe('abc!');
  });

  it('pasted text with its Enter in one chunk', async () => {
    expect((await typed(['pasted-value\r'])).stored).toBe('pasted-value');
  });

  it('Ctrl-C cancels: exit 1, nothing stored, raw mode restored', async () => {
    const r = await typed(['partial', '\u0003']);
    expect(r.code).toBe(1);
    expect(r.stored).toBeUndefined();
    expect(r.err).toContain('cancelled; nothing stored');
    expect(r.tty.rawModes).toEqual([true, false]);
  });

  it('Enter on an empty line stores nothing (exit 2)', async () => {
    const r = await typed(['\r']);
    expect(r.code).toBe(2);
    expect(r.stored).toBeUndefined();
  });
});
