// What a clean-up did (docs/format.md#ownership), for flow run, calibrate and explore: the
// switches written back, what was deleted, and what is left with why. Already redacted.
import type { CleanupEntry, CleanupReport } from '../../runner/index.js';

/** Instances named per reason left; the rest are counted. */
const MAX_IDS = 20;

/** Several clean-ups as one (a calibration's rounds and tries each clean up their own). */
export function mergeCleanups(reports: readonly CleanupReport[]): CleanupReport {
  return {
    restored: reports.flatMap((r) => r.restored),
    deleted: reports.flatMap((r) => r.deleted),
    left: once(reports.flatMap((r) => r.left)),
    exchanges: reports.flatMap((r) => r.exchanges),
  };
}

/**
 * Each instance left once: tries that each make the same record (a create that answers the id of
 * the one there, as an upsert does) leave one thing, named by that id, for the same reason.
 */
function once(left: readonly CleanupEntry[]): CleanupEntry[] {
  const seen = new Set<string>();
  return left.filter((l) => {
    // a redacted id (`***`) may stand for several
    if (l.id === undefined || l.id.includes('***')) return true;
    const key = JSON.stringify([l.resource, l.id, l.why]);
    return !seen.has(key) && !!seen.add(key);
  });
}

/**
 * `listDeleted: false`: what was deleted is counted, not listed (a calibration deletes after each
 * try); `deletedCount`: that count, when the report's list was not kept (explore's sequences).
 */
export function formatCleanup(report: CleanupReport, command: string, listDeleted = true, deletedCount = report.deleted.length): string {
  const lines: string[] = [];
  for (const r of report.restored) lines.push(`  ${r.restored ? 'restored' : 'NOT restored'} ${r.operation}: ${r.detail}`);
  if (listDeleted)
    for (const d of report.deleted)
      lines.push(
        `  deleted ${d.resource} ${named(d)} (${[d, ...(d.then ?? [])].map((s) => `${s.via}${s.actor ? ` as ${s.actor}` : ''} ${s.status}`).join(', ')}${d.gone ? `; ${d.gone}` : ''})`,
      );
  // one line per reason: a resource with no delete operation leaves each of its instances
  const left = new Map<string, string[]>();
  for (const l of report.left) {
    const key = `${l.resource}: ${l.why}`;
    left.set(key, [...(left.get(key) ?? []), named(l)]);
  }
  for (const [key, ids] of left) {
    // thousands of sequences may leave as many: the first few name the reason's instances
    const shown = ids.length > MAX_IDS ? `${ids.slice(0, MAX_IDS).join(', ')} and ${ids.length - MAX_IDS} more` : ids.join(', ');
    lines.push(`  left ${key.split(':')[0]} ${shown}:${key.slice(key.indexOf(':') + 1)}`);
  }
  if (!lines.length && !deletedCount) return '';
  const counts = [`${deletedCount} deleted`, `${report.left.length} left`];
  if (report.restored.length) counts.unshift(`${report.restored.filter((r) => r.restored).length}/${report.restored.length} switch(es) restored`);
  return `${command}: clean-up of what this run created: ${counts.join(', ')}\n${lines.map((l) => `${l}\n`).join('')}`;
}

/** Its name, else its place in the run's state, else what made it (a create the state did not record). */
function named(e: CleanupEntry): string {
  return e.id ?? (e.index !== undefined ? `[${e.index}]` : `(made by ${e.createdBy ?? 'a write'})`);
}
