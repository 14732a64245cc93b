// A feature-flag server whose flags depend on other flags, answering as a real one (Unleash 7)
// does: a dependency is written on the child (`POST /flags/{child}/dependencies` with the parent's
// name in the body, 200 and no body), refused with 403 when the parent does not exist ("No
// active flag parent_flag exists") or is the child itself; a flag that other flags depend on
// cannot be deleted (403); deleting a child deletes its dependencies. For the tests of an
// operation that needs a second instance of the resource its path names.
import type { ServerResponse } from 'node:http';
import { json, startServer, type TestServer } from './http-server.js';

export interface FlagsApi extends TestServer {
  /** flag name -> the names of its parents */
  flags: Map<string, Set<string>>;
}

const refused = (res: ServerResponse, message: string) => json(res, 403, { name: 'InvalidOperationError', message, details: [{ message }] });

export async function startFlagsApi(): Promise<FlagsApi> {
  const flags = new Map<string, Set<string>>();
  const children = (name: string) => [...flags].filter(([, parents]) => parents.has(name)).map(([child]) => child);
  const srv = await startServer({
    '*': (req, res) => {
      if (req.method === 'POST' && req.path === '/flags') {
        const name = (req.json() as { name?: unknown } | undefined)?.name;
        if (typeof name !== 'string' || !name) return json(res, 400, { message: '"name" is required' });
        if (flags.has(name)) return json(res, 409, { message: `A flag named ${name} already exists` });
        flags.set(name, new Set());
        return json(res, 201, { name, createdAt: new Date().toISOString() });
      }
      if (req.method === 'GET' && req.path === '/flags') return json(res, 200, { flags: [...flags.keys()].map((name) => ({ name })) });
      const dep = /^\/flags\/([^/]+)\/dependencies(?:\/([^/]+))?$/.exec(req.path);
      if (dep) {
        const child = decodeURIComponent(dep[1]);
        if (!flags.has(child)) return json(res, 404, { message: `Could not find flag ${child}` });
        if (req.method === 'DELETE' && dep[2] !== undefined) {
          flags.get(child)!.delete(decodeURIComponent(dep[2]));
          return void res.writeHead(200).end();
        }
        if (req.method !== 'POST' || dep[2] !== undefined) return json(res, 404, { message: 'Not found' });
        const parent = (req.json() as { flag?: unknown } | undefined)?.flag;
        if (typeof parent !== 'string' || !parent) return json(res, 400, { message: '"flag" is required' });
        if (parent === child) return refused(res, 'A flag cannot depend on itself.');
        if (!flags.has(parent)) return refused(res, `No active flag ${parent} exists`);
        flags.get(child)!.add(parent);
        return void res.writeHead(200).end();
      }
      const one = /^\/flags\/([^/]+)(\/parents)?$/.exec(req.path);
      const name = one ? decodeURIComponent(one[1]) : '';
      if (!one || !flags.has(name)) return json(res, 404, { message: `Could not find flag ${name}` });
      if (req.method === 'GET') return json(res, 200, one[2] ? [...flags.get(name)!] : { name });
      if (req.method === 'DELETE' && !one[2]) {
        if (children(name).length) return refused(res, 'You can not delete this flag since other flags depend on it.');
        flags.delete(name);
        return void res.writeHead(200).end();
      }
      return json(res, 404, { message: 'Not found' });
    },
  });
  return Object.assign(srv, { flags });
}
