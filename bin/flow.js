#!/usr/bin/env -S node --liftoff-only
// Thin launcher: the CLI lives in dist/cli (built by `npm ci` through the prepare script).
//
// `--liftoff-only`, on the command line that starts the process (never changed at run time,
// never through NODE_OPTIONS, which every child process would inherit): undici parses HTTP
// with llhttp compiled to WebAssembly, and without the flag V8 compiles that parser a second
// time with its optimising compiler, which costs a 1,000-request run ~25 MB of peak memory
// and a one-chain run ~35 MB and 100+ ms (BENCHMARKS.md); parsing a response head is a small
// part of a request. `env -S` is GNU coreutils (8.30+), macOS and FreeBSD; npm's Windows shims
// read it too. Where `env` has no `-S` (BusyBox, as on Alpine): `node <this file> …`.
import module from 'node:module';

// Node >= 22.1 keeps the compiled code of our modules on disk: later starts skip compiling
// them (module.enableCompileCache is absent on Node 20, where nothing changes). Set before
// the CLI's modules load, since only modules loaded after it are cached.
module.enableCompileCache?.();

const { main } = await import('../dist/cli/main.js');

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
