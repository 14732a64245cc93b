#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/cli (built by `npm ci` through the prepare script).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Last line of defence: never a stack trace for the user.
    process.stderr.write(`flow: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 70;
  },
);
