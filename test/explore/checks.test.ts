// The read-after-delete check of `flow explore`: a deleted thing may read 404 (not found) or 410
// (gone, RFC 9110 15.5.11), or 401/403 (a real storage service answers 403 for a bucket that
// no longer exists: its permissions went with it), and a 5xx is the server-error check's, not
// this one's; anything else is E_USE_AFTER_DELETE.
import { describe, expect, it } from 'vitest';
import { asEchoed, useAfterDelete } from '../../src/explore/checks.js';
import { createResponse } from '../../src/http/response.js';
import type { Operation } from '../../src/project/index.js';

const read = { id: 'item.get' } as Operation;
const answered = (status: number) => useAfterDelete(read, createResponse({ status }), 'item.delete');

describe('useAfterDelete', () => {
  it.each([401, 403, 404, 410, 500, 503])('a %i after the delete is no use-after-delete', (status) => {
    expect(answered(status)).toBeUndefined();
  });

  it.each([200, 204, 301, 400, 409, 499])('a %i after the delete is E_USE_AFTER_DELETE', (status) => {
    expect(answered(status)).toEqual({
      code: 'E_USE_AFTER_DELETE',
      message: `item.get answered ${status} for what item.delete deleted (expected 404, 410, 401 or 403)`,
    });
  });
});

describe('asEchoed: the body as the answer shows the server read it', () => {
  const answer = (body: unknown) => createResponse({ status: 201, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  it('takes each scalar the answer shows at the same place, in or out of a `data` envelope', () => {
    const sent = { data: { cache_expires: '12', other: 0.5 }, permissions: { read: [] } };
    expect(asEchoed(sent, answer({ data: { cache_expires: 12, other: 0, id: 'c1' }, permissions: { write: ['me'] } }))).toEqual({
      data: { cache_expires: 12, other: 0 },
      permissions: { read: [] },
    });
    expect(asEchoed({ price: '12' }, answer({ data: { price: 12, id: 'p1' } }))).toEqual({ price: 12 });
  });

  it('keeps what the answer does not show, and objects and arrays, as sent', () => {
    expect(asEchoed({ price: '12', tags: 'x' }, answer({ id: 'p1', tags: ['x'] }))).toEqual({ price: '12', tags: 'x' });
    expect(asEchoed({ price: { x: 1 } }, answer({ price: 0 }))).toEqual({ price: { x: 1 } });
    expect(asEchoed({ price: '12' }, createResponse({ status: 204 }))).toEqual({ price: '12' });
  });
});
