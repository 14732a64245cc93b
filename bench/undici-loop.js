// The baseline: the same requests as `flow run --all` on the chain project, in a plain
// sequential undici loop. Prints the loop's own time (start-up excluded) as JSON.
import { Agent, request } from 'undici';

const [base, chains] = [process.argv[2], Number(process.argv[3])];
const dispatcher = new Agent();
const json = async (res) => JSON.parse(await res.body.text());

const started = performance.now();
for (let i = 0; i < chains; i++) {
  const login = await json(
    await request(`${base}/login`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: `u${i}` }) }),
  );
  const auth = { authorization: `Bearer ${login.token}`, 'content-type': 'application/json' };
  const created = await json(await request(`${base}/items`, { method: 'POST', dispatcher, headers: auth, body: JSON.stringify({ name: `item${i}` }) }));
  const got = await json(await request(`${base}/items/${created.id}`, { dispatcher, headers: auth }));
  if (got.id !== created.id) throw new Error('mismatch');
  const published = await json(await request(`${base}/items/${created.id}/publish`, { method: 'POST', dispatcher, headers: auth }));
  if (published.published !== true) throw new Error('not published');
}
const ms = performance.now() - started;
await dispatcher.close();
console.log(JSON.stringify({ ms, requests: chains * 4 }));
