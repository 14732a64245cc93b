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
// - JavaScript is optimised later and inlines less. The runner's code is large and each
//   operation runs it once, so in a run of a thousand requests functions kept becoming hot
//   one after another, each optimising compile taking 3-35 ms of background CPU (400 ms in
//   all for 2,000 requests) for code that then ran a few hundred more times.
// With both, a 1,000-request run took about 15% less time on 2 cores, and 25 MB less memory
// (npm run bench; BENCHMARKS.md). Only on the V8 versions checked to have each flag: an
// unknown flag would print an error line on every command.
const v8Major = Number(process.versions.v8.split('.')[0]);
const flags = [];
if (v8Major >= 11 && v8Major <= 13) flags.push('--liftoff-only', '--max-inlined-bytecode-size-cumulative=250'); // Node 20-24
if (v8Major === 11) flags.push('--interrupt-budget=135168'); // Node 20: twice the default; later V8s count calls instead
for (const flag of flags) setFlagsFromString(flag);

// Output piped into a reader that stops early (`flow run … | head`): stop quietly, as other
// command-line tools do, instead of failing on the next write.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    process.exit(err && err.code === 'EPIPE' ? (process.exitCode ?? 0) : 70);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // The command is done. A timer a dependency still holds (undici's retry waits out a
    // Retry-After of up to 60 s even after the request timed out) must not keep the process
    // alive: exit shortly, once pending output has drained, if nothing else ends it first.
    setTimeout(() => process.exit(code), 200).unref();
  },
  (err) => {
    // Last line of defence: never a stack trace for the user.
    process.stderr.write(`flow: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
