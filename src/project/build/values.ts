// Lenient readers of raw YAML values. The format's silent failures (docs/format.md#silent-failures)
// stay silent here: a value of the wrong type is dropped (lint reports it from the raw document),
// never thrown.
import { isSecretRef, type TemplateValue } from '../types.js';

export type RawMap = Record<string, unknown>;

/** A mapping of the document (a `!secret` value is not one). */
export function isRawMap(v: unknown): v is RawMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isSecretRef(v);
}

export function asMap(v: unknown): RawMap | undefined {
  return isRawMap(v) ? v : undefined;
}

export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Scalars that YAML may have typed (`version: 1`, `id: 42`) read as text where text is meant. */
export function asText(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

export function asInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

export function asStringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function asStatusList(v: unknown): number[] | undefined {
  if (asInt(v) !== undefined) return [v as number];
  if (Array.isArray(v)) {
    const list = v.filter((x): x is number => asInt(x) !== undefined);
    return list.length ? list : undefined;
  }
  return undefined;
}

export function asTemplateMap(v: unknown): Record<string, TemplateValue> {
  const m = asMap(v);
  return m ? (m as Record<string, TemplateValue>) : {};
}
