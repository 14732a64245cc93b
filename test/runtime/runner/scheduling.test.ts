// Scheduling under --concurrency: DELETEs still go last (DESIGN "Prerequisites"), so that a
// DELETE never races a read of what it deletes.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startShopApi, type ShopApi } from '../../helpers/shop-api.js';
import { SHOP_FILES, SHOP_SECRET } from '../../helpers/shop-project.js';
import { closeRunners, load, outcomes } from './helpers.js';

let api: ShopApi;

beforeEach(async () => {
  await api?.close();
  api = await startShopApi();
});
afterAll(async () => {
  await closeRunners();
  await api?.close();
});

const shop = (concurrency: number) => load(SHOP_FILES, { vars: { baseUrl: api.url }, secrets: { SHOP_PW: SHOP_SECRET }, concurrency });

describe('DELETEs under --concurrency', () => {
  it('a DELETE starts only after the other asked operations ended, even when a read of the same order is slow', async () => {
    api.slow.set('GET /orders/', 120);
    const { runner } = await shop(4);
    const summary = await runner.runMany(['order.delete', 'order.get', 'order.list']);
    expect(outcomes(summary)).toEqual([
      ['order.list', 'passed', undefined],
      ['order.get', 'passed', undefined],
      ['order.delete', 'passed', undefined],
    ]);
    expect(api.log.slice(-2)).toEqual(['GET /orders/2', 'DELETE /orders/2']);
  });
});
