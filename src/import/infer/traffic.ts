// Traffic (HAR, curl logs): a value sent in a later request that was seen in an earlier
// response grounds a placeholder and an extraction. The observed values are the evidence.
import type { ObservedOperation } from '../observed.js';

export interface ValueSource {
  producer: ObservedOperation;
  /** path in the producer's response body, list indexes as numbers */
  field: Array<string | number>;
  evidence: string;
}

interface Leaf {
  text: string;
  field: Array<string | number>;
  op: ObservedOperation;
}

/** Long or digit-bearing values only: `0`, `true` or `available` prove nothing. */
export function isIdLike(value: string): boolean {
  if (value.length < 3 || value.length > 200) return false;
  if (/^(v\d+|\d+\.\d+)$/i.test(value)) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return false; // dates repeat by chance
  return (/\d/.test(value) && value.length >= 4) || (value.length >= 16 && /^[A-Za-z0-9_.-]+$/.test(value));
}

export class ValueIndex {
  private readonly leaves: Leaf[] = [];

  constructor(ops: ObservedOperation[]) {
    for (const op of ops) {
      for (const r of op.responses) {
        if (r.example === undefined) continue;
        walk(r.example, [], (text, field) => {
          // Big integers lose digits in JSON.parse: only a value also present verbatim counts.
          if (r.rawText !== undefined && !r.rawText.includes(text)) return;
          this.leaves.push({ text, field, op });
        });
      }
    }
  }

  /** The latest response before `order` that contains `value` as a whole field value. */
  find(value: string, order: number): ValueSource | undefined {
    if (!isIdLike(value)) return undefined;
    let best: Leaf | undefined;
    for (const leaf of this.leaves) {
      if (leaf.text !== value || leaf.op.order >= order) continue;
      if (!best || leaf.op.order > best.op.order) best = leaf;
    }
    if (!best) return undefined;
    return {
      producer: best.op,
      field: best.field,
      evidence: `value "${short(value)}" was returned at ${fieldText(best.field)} by ${best.op.key} (${best.op.evidence.file} ${best.op.evidence.at}) before it was sent`,
    };
  }
}

function walk(v: unknown, path: Array<string | number>, visit: (text: string, field: Array<string | number>) => void, depth = 0): void {
  if (depth > 8) return;
  if (Array.isArray(v)) {
    v.slice(0, 50).forEach((x, i) => walk(x, [...path, i], visit, depth + 1));
    return;
  }
  if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) walk(x, [...path, k], visit, depth + 1);
    return;
  }
  if (typeof v === 'string' || typeof v === 'number') visit(String(v), path);
}

function short(v: string): string {
  return v.length > 24 ? `${v.slice(0, 12)}…${v.slice(-6)}` : v;
}

export function fieldText(field: ReadonlyArray<string | number>): string {
  return field.length
    ? field
        .map((f) => (typeof f === 'number' ? `[${f}]` : `.${f}`))
        .join('')
        .replace(/^\./, '')
    : '(body)';
}
