// V8 settings for a process that sends requests to a server on the same machine, where V8's
// background compiles compete for a core with the server under test. Used by `flow` (its
// launcher) and by a flow.yaml suite in its Vitest worker.
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
// (npm run bench; BENCHMARKS.md). They change speed only, never behaviour. Set at run time,
// they apply to what is compiled afterwards: call this before the first request.
import { setFlagsFromString } from 'node:v8';

/** The V8 versions (Node 20-24) checked to have the flags set here and in src/cli/heap.ts: an unknown flag prints an error line. */
export function hasCheckedV8Flags(v8Version: string = process.versions.v8): boolean {
  const major = Number(v8Version.split('.')[0]);
  return major >= 11 && major <= 13;
}

/** Only on the V8 versions checked to have each flag. */
export function v8RunFlags(v8Version: string = process.versions.v8): string[] {
  const major = Number(v8Version.split('.')[0]);
  const flags: string[] = [];
  if (hasCheckedV8Flags(v8Version)) flags.push('--liftoff-only', '--max-inlined-bytecode-size-cumulative=250'); // Node 20-24
  if (major === 11) flags.push('--interrupt-budget=135168'); // Node 20: twice the default; later V8s count calls instead
  return flags;
}

export function tuneV8ForRequests(): void {
  for (const flag of v8RunFlags()) setFlagsFromString(flag);
}
