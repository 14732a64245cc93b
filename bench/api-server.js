// The benchmark's API, in its own process: login -> create -> get -> publish.
// `node bench/api-server.js [delayMs]` prints "LISTENING <url>".
import http from 'node:http';

const delay = Number(process.argv[2] ?? 0);
const items = new Map();
let next = 1;

function send(res, status, body) {
  const text = JSON.stringify(body);
  const reply = () => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (delay) setTimeout(reply, delay);
  else reply();
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST' && url.pathname === '/login') return send(res, 200, { token: `tok-${next++}` });
    if (!/^Bearer tok-\d+$/.test(req.headers.authorization ?? '')) return send(res, 401, { error: 'unauthorized' });
    if (req.method === 'POST' && url.pathname === '/items') {
      const id = next++;
      items.set(id, { id, ...JSON.parse(body || '{}'), published: false });
      return send(res, 201, { id });
    }
    const m = /^\/items\/(\d+)(\/publish)?$/.exec(url.pathname);
    const item = m && items.get(Number(m[1]));
    if (!item) return send(res, 404, { error: 'not found' });
    if (req.method === 'GET' && !m[2]) return send(res, 200, item);
    if (req.method === 'POST' && m[2]) {
      item.published = true;
      return send(res, 200, item);
    }
    return send(res, 405, { error: 'method' });
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING http://127.0.0.1:${server.address().port}`));
