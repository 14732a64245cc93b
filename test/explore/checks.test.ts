// The read-after-delete check of `flow explore`: a deleted thing may read 404 (not found) or 410
// (gone, RFC 9110 15.5.11), and a 5xx is the server-error check's, not this one's; anything else
// is E_USE_AFTER_DELETE.
import { describe, expect, it } from 'vitest';
import { useAfterDelete } from '../../src/explore/checks.js';
import { createResponse } from '../../src/http/response.js';
import type { Operation } from '../../src/project/index.js';

const read = { id: 'item.get' } as Operation;
const answered = (status: number) => useAfterDelete(read, createResponse({ status }), 'item.delete');

describe('useAfterDelete', () => {
  it.each([404, 410, 500, 503])('a %i after the delete is no use-after-delete', (status) => {
    expect(answered(status)).toBeUndefined();
  });

  it.each([200, 204, 400, 403, 409, 499])('a %i after the delete is E_USE_AFTER_DELETE', (status) => {
    expect(answered(status)).toEqual({ code: 'E_USE_AFTER_DELETE', message: `item.get answered ${status} for what item.delete deleted (expected 404 or 410)` });
  });
});
