#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/cli (built by `npm ci` through the prepare script).
import { setFlagsFromString } from 'node:v8';
import { main } from '../dist/cli/main.js';

// V8 settings for a short-lived command that sends requests to a server on the same
// machine, where V8's background compiles compete for a core with the server under test.
// - undici parses HTTP/1 with llhttp compiled to WebAssembly. V8 compiles it with its
//   baseline compiler (Liftoff) and, once hot, again with its optimising compiler on a
//   background thread: 80-130 ms of CPU and about 25 MB of memory for one large function,
//   and a process cannot exit before that job ends (a run of a few requests waited for it).
//   llhttp stays on Liftoff code: parsing a response head is a small part of a request.
// - Optimised JavaScript inlines less: each optimising compile of the runner's code took
//   10-35 ms of background CPU with the default budget, for code that runs a few thousand
//   times at most. (npm run bench: a 1,000-request run about 5% faster, 25 MB smaller.)
// Only on the V8 versions checked to have the flags (Node 20, 22 and 24): an unknown flag
// would print an error line on every command.
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 11 && v8Major <= 13) {
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--max-inlined-bytecode-size-cumulative=250');
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Last line of defence: never a stack trace for the user.
    process.stderr.write(`flow: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
