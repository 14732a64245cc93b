// Contract check cost (issue 22): one response of about 2 KB (a list of pets) checked against
// the pets description of test/fixtures/contract: the operation matched by method and path,
// the status and content type looked up, the body parsed and validated by its compiled Ajv
// validator. A fresh response each time, so JSON parsing is counted. Goal: under 50 µs.
import path from 'node:path';
import { median, ROOT, table } from './lib.js';

const BATCHES = 7;
const PER_BATCH = 5_000;

export async function benchContract() {
  const { loadContract } = await import(path.join(ROOT, 'dist/contract/index.js'));
  const { createResponse } = await import(path.join(ROOT, 'dist/http/response.js'));
  const contract = await loadContract(path.join(ROOT, 'test/fixtures/contract/pets/openapi.yaml'));
  const items = [];
  for (let i = 1; items.length === 0 || JSON.stringify({ items, total: items.length }).length < 2048; i++) {
    items.push({ id: i, name: `pet number ${i}`, tag: i % 2 ? 'dog' : null, createdAt: new Date(Date.UTC(2026, 0, i)).toISOString() });
  }
  const body = Buffer.from(JSON.stringify({ items, total: items.length }));
  const url = 'http://127.0.0.1:4000/v1/pets';
  const check = () => {
    const response = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body, url });
    const warnings = contract.check({ operation: 'pet.list', method: 'GET', url, response, redact: (v) => v });
    if (warnings) throw new Error(`the benchmark body breaks the description: ${JSON.stringify(warnings)}`);
  };
  // also a response that breaks it (a wrong type deep in the list): the error path
  const broken = Buffer.from(body.toString().replace('"id":7,', '"id":"7",'));
  const checkBroken = () => {
    const response = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: broken, url });
    try {
      contract.check({ operation: 'pet.list', method: 'GET', url, response, redact: (v) => v });
    } catch (err) {
      if (err.code === 'E_CONTRACT') return;
      throw err;
    }
    throw new Error('the broken body passed');
  };
  const perCheckUs = (fn) => {
    for (let i = 0; i < PER_BATCH; i++) fn(); // warm-up: compiled validator, optimised code
    const batches = [];
    for (let b = 0; b < BATCHES; b++) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < PER_BATCH; i++) fn();
      batches.push(Number(process.hrtime.bigint() - t) / 1000 / PER_BATCH);
    }
    return median(batches).toFixed(1);
  };
  const parseOnly = () => JSON.parse(body.toString());
  const rows = [
    [`conforming ${body.length}-byte body (${items.length} pets)`, perCheckUs(check)],
    ['the same with a wrong type (E_CONTRACT thrown, message built)', perCheckUs(checkBroken)],
    ['JSON.parse of the body alone, for scale', perCheckUs(parseOnly)],
  ];
  return {
    title: `Contract check per response (median of ${BATCHES} batches of ${PER_BATCH.toLocaleString('en')})`,
    table: table(['case', 'µs per response'], rows),
    rows,
  };
}
