// What a clean-up did (docs/format.md#ownership), for flow run, calibrate and explore: the
// switches written back, what was deleted, and what is left with why. Already redacted.
import type { CleanupReport } from '../../runner/index.js';

export function formatCleanup(report: CleanupReport, command: string): string {
  const lines: string[] = [];
  for (const r of report.restored) lines.push(`  ${r.restored ? 'restored' : 'NOT restored'} ${r.operation}: ${r.detail}`);
  for (const d of report.deleted) lines.push(`  deleted ${d.resource} ${d.id ?? `[${d.index}]`} (${d.via} ${d.status})`);
  // one line per reason: a resource with no delete operation leaves each of its instances
  const left = new Map<string, string[]>();
  for (const l of report.left) {
    const key = `${l.resource}: ${l.why}`;
    left.set(key, [...(left.get(key) ?? []), l.id ?? `[${l.index}]`]);
  }
  for (const [key, ids] of left) lines.push(`  left ${key.split(':')[0]} ${ids.join(', ')}:${key.slice(key.indexOf(':') + 1)}`);
  if (!lines.length) return '';
  const counts = [`${report.deleted.length} deleted`, `${report.left.length} left`];
  if (report.restored.length) counts.unshift(`${report.restored.filter((r) => r.restored).length}/${report.restored.length} switch(es) restored`);
  return `${command}: clean-up of what this run created: ${counts.join(', ')}\n${lines.join('\n')}\n`;
}
