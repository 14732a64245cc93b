// A CliIO that records what a command printed, with stdin from a string.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { CliIO } from '../../../src/cli/io.js';

export interface RecordedIO {
  io: CliIO;
  out(): string;
  err(): string;
}

export function recordedIO(options: { cwd: string; stdin?: NodeJS.ReadableStream | string; env?: NodeJS.ProcessEnv; stdoutIsTTY?: boolean }): RecordedIO {
  let out = '';
  let err = '';
  const stdin =
    typeof options.stdin === 'string' || options.stdin === undefined ? Readable.from(options.stdin ? [Buffer.from(options.stdin)] : []) : options.stdin;
  return {
    io: {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
      stdin,
      cwd: options.cwd,
      env: options.env ?? {},
      isTTY: false,
      stdoutIsTTY: options.stdoutIsTTY ?? false,
    },
    out: () => out,
    err: () => err,
  };
}

/** A one-file project whose root has `name: <name>`. */
export function tempProject(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-secret-'));
  writeFileSync(path.join(dir, 'flow.yaml'), `version: 1\nname: ${name}\n`);
  return dir;
}
