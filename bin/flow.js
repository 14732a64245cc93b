#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/cli (built by `npm ci` through the prepare script).
import { setFlagsFromString } from 'node:v8';
import { main } from '../dist/cli/main.js';

// undici parses HTTP/1 with llhttp compiled to WebAssembly. After about three responses V8
// starts optimising llhttp's parse function on a background thread (80-130 ms of compiling),
// and a process cannot exit before that job ends: a run of a few requests waited for it at
// exit. A larger budget lets short runs end on the baseline code; longer runs still tier up,
// after about ten responses instead of three. Set before the first request compiles llhttp.
// Only on the V8 versions checked to have the flag (Node 20 and 22): an unknown flag would
// print an error line on every command.
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 11 && v8Major <= 12) setFlagsFromString('--wasm-tiering-budget=50000000');

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Last line of defence: never a stack trace for the user.
    process.stderr.write(`flow: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
