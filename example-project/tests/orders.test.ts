// Checks the YAML cannot say, on the same runner and state as the project's operations:
// `flow` runs operations (prerequisites first, each once per file) and reads their values.
import { createFlowTest } from 'reqflow/vitest/suite';

const test = createFlowTest('../flow.yaml');

test('an order is placed for the product that was published', async ({ flow, expect }) => {
  await flow.check('order.get');
  const product = flow.values('product');
  expect(product).toMatchObject({ status: 'published' });
  expect(flow.values('order')).toMatchObject({ status: 'pending' });
  expect(flow.result('order.create')?.exchanges.at(-1)?.request.body).toContain(String(product?.id));
});

test('the report counts the order placed in this file', async ({ flow, expect }) => {
  await flow.check('report.result');
  expect(flow.values('report')).toMatchObject({ total: 49, row_count: 1 });
});
