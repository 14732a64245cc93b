// "did you mean …?": the closest known name within a small edit distance.

/** Names at most this many edits away are suggested. */
const MAX_SUGGESTION_DISTANCE = 2;

/**
 * The candidate closest to `name` (Levenshtein distance ≤ `max`, case-insensitive), first
 * in candidate order on ties; undefined when none is close or `name` is itself a candidate.
 */
export function closestName(name: string, candidates: Iterable<string>, max = MAX_SUGGESTION_DISTANCE): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const c of candidates) {
    if (c === name) return undefined;
    const d = distance(wanted, c.toLowerCase(), bestDistance - 1);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** " (did you mean x?)" or "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const s = closestName(name, candidates);
  return s === undefined ? '' : ` (did you mean ${s}?)`;
}

/** Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length];
}
