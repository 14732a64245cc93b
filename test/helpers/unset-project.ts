// A project where some operations need a <SET_VIA_--var> nobody gives (`env.child`), and the
// server that answers it: the rest must still run, the blocked ones be skipped with the --var.
import { json, startServer, type TestServer } from './http-server.js';

export function unsetProjectFiles(baseUrl: string): Record<string, string> {
  return {
    'flow.yaml': 'version: 1\nname: partial\nimports: [environments/*.yaml, resources/*.yaml]\n',
    'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${baseUrl}\n  child: <SET_VIA_--var>\n  tenant: <SET_VIA_--var>\n`,
    'resources/items.yaml': 'name: item\noperations:\n  list: { path: /items }\n  get: { path: /items/1 }\n',
    'resources/children.yaml': [
      'name: child',
      'operations:',
      '  get: { path: "/children/{{env.child}}", extract: { id: $.data.id } }',
      // needs env.child through its prerequisite, and env.tenant itself
      '  detail: { path: "/children/{{child.id}}/detail", headers: { X-Tenant: "{{env.tenant}}" } }',
      '',
    ].join('\n'),
  };
}

export function startUnsetApi(): Promise<TestServer> {
  return startServer({
    'GET /items': (_req, res) => json(res, 200, []),
    'GET /items/1': (_req, res) => json(res, 200, { id: 1 }),
    '*': (_req, res) => json(res, 200, { id: 'c1' }),
  });
}
