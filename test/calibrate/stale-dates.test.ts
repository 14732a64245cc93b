// The dates a 400 about "a date in the future" asks calibrate to move (body.ts staleDates): those
// that have passed by the time the server reads them, and no other value. And the description's
// examples a 400 naming nothing makes calibrate try (exampleFields): a date among them that has
// passed is tried a day ahead, not written into what the run made (an expired invitation).
import { describe, expect, test } from 'vitest';
import { exampleFields, staleDates } from '../../src/calibrate/body.js';
import type { Operation } from '../../src/project/index.js';

const op = (body: unknown) => ({ id: 'pat.create', method: 'POST', body }) as unknown as Operation;
const NOW = Date.parse('2026-11-28T12:00:00Z');

describe('staleDates', () => {
  test('a past date or date-time, {{$.now}} and a time before it, nested one level', () => {
    const body = {
      expiresAt: '2023-04-19T08:15:14.000Z',
      day: '2024-01-01',
      now: '{{$.now}}',
      before: '{{ $.now - 1h }}',
      inner: { until: '2025-12-31T23:59:59+01:00' },
    };
    expect(staleDates(op(body), NOW)).toEqual(['expiresAt', 'day', 'now', 'before', 'inner.until']);
  });
  test('a date ahead, a time moved ahead, text that only looks like a date, and no body: nothing', () => {
    const body = { expiresAt: '2027-04-19T08:15:14Z', later: '{{$.now + 1d}}', version: '2023-04-19-beta', count: 2023, note: 'since 2023-04-19' };
    expect(staleDates(op(body), NOW)).toEqual([]);
    expect(staleDates(op(undefined), NOW)).toEqual([]);
  });
});

describe('exampleFields', () => {
  test('a date-time example that has passed is a day ahead; a plain date, a date ahead and other values are the examples', () => {
    const properties = {
      expiresAt: { type: 'string', format: 'date-time', example: '2023-04-11T15:46:56Z' },
      day: { type: 'string', format: 'date', example: '2024-01-01' },
      until: { type: 'string', example: '2027-04-19T08:15:14Z' },
      enabled: { type: 'boolean', example: true },
      version: { type: 'string', example: '2023-04-19-beta' },
    };
    const update = { id: 'link.update', method: 'PUT', body: {} } as unknown as Operation;
    expect(exampleFields(update, () => ({ type: 'object', properties }), NOW)).toEqual([
      { field: 'expiresAt', value: '{{$.now + 1d}}' },
      { field: 'day', value: '2024-01-01' },
      { field: 'until', value: '2027-04-19T08:15:14Z' },
      { field: 'enabled', value: true },
      { field: 'version', value: '2023-04-19-beta' },
    ]);
  });
});
