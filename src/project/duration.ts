// Durations as written in YAML (`15m`, `24h`, `30s`, `2d`, `500ms`): session.ttl and `$.now + 1h`.
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds, or undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  return m ? Number(m[1]) * UNITS[m[2]] : undefined;
}
