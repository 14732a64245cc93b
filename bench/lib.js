// Helpers shared by the benchmarks: run a command in a child process and measure its wall
// time and peak memory (RSS, via a preloaded reporter), and print tables.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FLOW = path.join(ROOT, 'bin', 'flow.js');
const RSS_REPORT = path.join(ROOT, 'bench', 'rss-report.mjs');
/** The Node flags of bin/flow.js's `#!/usr/bin/env -S node <flags>` line: `flow` is measured as it starts when run. */
const FLOW_FLAGS = (/^#!\/usr\/bin\/env -S node(.*)$/m.exec(readFileSync(FLOW, 'utf8').split('\n')[0])?.[1] ?? '').split(/\s+/).filter(Boolean);

/** Run `node <args>`; resolves { ms, rssMB, code, stdout, stderr }. */
export function measureNode(args, { env = {}, cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const flags = args[0] === FLOW ? FLOW_FLAGS : [];
    const child = spawn(process.execPath, [...flags, '--import', RSS_REPORT, ...args], {
      cwd,
      env: { ...process.env, ...env, BENCH_RSS_FD: '3' },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let rss = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdio[3].on('data', (d) => (rss += d));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ ms: performance.now() - started, rssMB: Number(rss.trim()) / 1024, code, stdout, stderr });
    });
  });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
