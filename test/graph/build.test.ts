import { afterAll, describe, expect, it } from 'vitest';
import { buildGraph, loginFields, walkTemplates, type ProjectGraph } from '../../src/graph/index.js';
import { secretRef } from '../../src/project/types.js';
import { cleanProjects } from '../helpers/project.js';
import { graphOf, loadInline } from './helpers.js';

afterAll(cleanProjects);

/** `from -> to (kind via)` for every edge of the graph, in operation order. */
function edgeLines(graph: ProjectGraph): string[] {
  return graph.edges.flat().map((e) => `${e.from} -> ${e.to} (${e.kind} ${e.via})`);
}

const ORDERS = `
resources:
  order:
    operations:
      create:
        method: POST
        path: /orders
        extract: { id: $.data.id, status: $.data.status }
      list:
        path: /orders
        extract: { id: '$.data[*].id' }
      get:
        path: '/orders/{{order.id}}'
        extract: { total: $.data.total }
      update:
        method: PUT
        path: '/orders/{{order.id}}'
        extract: { id: $.data.id }
`;

describe('producers', () => {
  it('lists the extracting operations in declaration order', async () => {
    const g = await graphOf(ORDERS);
    expect(g.producers('order', 'id')).toEqual(['order.create', 'order.list', 'order.update']);
    expect(g.producers('order', 'total')).toEqual(['order.get']);
    expect(g.producers('order', 'nope')).toEqual([]);
    expect(g.producers('nobody', 'id')).toEqual([]);
    expect(g.fieldsOf('order')).toEqual(['id', 'status', 'total']);
  });

  it('the first declared producer is the prerequisite; an operation never needs itself', async () => {
    const g = await graphOf(ORDERS);
    expect(edgeLines(g)).toEqual(['order.get -> order.create (implicit {{order.id}})', 'order.update -> order.create (implicit {{order.id}})']);
    expect(g.selfProduced).toEqual([]);
  });

  it('when the first producer is the reader, the next one is chosen; when it is the only one, no edge', async () => {
    const g = await graphOf(`
resources:
  order:
    operations:
      create:
        method: POST
        path: /orders
        headers: { X-Previous: '{{order.id}}' }
        extract: { id: $.data.id }
      list:
        extract: { id: '$.data[*].id' }
  invoice:
    operations:
      refresh:
        path: '/invoices/{{invoice.id}}'
        extract: { id: $.data.id }
`);
    expect(edgeLines(g)).toEqual(['order.create -> order.list (implicit {{order.id}})']);
    expect(g.selfProduced.map((s) => [s.opId, s.site.raw])).toEqual([['invoice.refresh', '{{invoice.id}}']]);
  });
});

describe('implicit edges', () => {
  const PLACES = `
resources:
  a:
    operations:
      make: { method: POST, extract: { p: $.data.p } }
  b:
    operations:
      make: { method: POST, extract: { q: $.data.q } }
  c:
    operations:
      make: { method: POST, extract: { h: $.data.h } }
  d:
    operations:
      make: { method: POST, extract: { b: $.data.b } }
  e:
    operations:
      make: { method: POST, extract: { f: $.data.f } }
  f:
    operations:
      make: { method: POST, extract: { s: $.data.s } }
  g:
    operations:
      make: { method: POST, extract: { c: $.data.c } }
  h:
    operations:
      make: { method: POST, extract: { x: $.data.x } }
  user:
    operations:
      use:
        method: POST
        path: '/a/{{a.p}}'
        query_params: { q: '{{b.q}}' }
        headers: { X-H: 'v {{c.h}}' }
        body: { nested: [1, { deep: '{{d.b}}' }] }
        body_form: { f: '{{e.f}}' }
        assert:
          - "$.data.status == '{{f.s}}'"
        poll_until:
          condition: "$.data.ok == '{{g.c}}'"
          interval: 10
        extract: { nothing: '$.data[?(@.x=="{{h.x}}")]' }
`;

  it('come from path, query_params, headers, body, body_form, assert and poll_until, not extract', async () => {
    const g = await graphOf(PLACES);
    const edges = g.edgesOf('user.use');
    expect(edges.map((e) => [e.to, e.kind, e.via, e.yamlPath.join('/')])).toEqual([
      ['a.make', 'implicit', '{{a.p}}', 'resources/user/operations/use/path'],
      ['b.make', 'implicit', '{{b.q}}', 'resources/user/operations/use/query_params/q'],
      ['c.make', 'implicit', '{{c.h}}', 'resources/user/operations/use/headers/X-H'],
      ['d.make', 'implicit', '{{d.b}}', 'resources/user/operations/use/body/nested/1/deep'],
      ['e.make', 'implicit', '{{e.f}}', 'resources/user/operations/use/body_form/f'],
      ['f.make', 'implicit', '{{f.s}}', 'resources/user/operations/use/assert/0'],
      ['g.make', 'implicit', '{{g.c}}', 'resources/user/operations/use/poll_until/condition'],
    ]);
    expect(g.needs[g.indexOf.get('user.use')!]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(g.neededBy[g.indexOf.get('a.make')!]).toEqual([g.indexOf.get('user.use')]);
  });

  it('come from references nested in codec arguments and from indexed references', async () => {
    const g = await graphOf(`
resources:
  account:
    operations:
      open: { method: POST, extract: { key: $.data.key } }
  item:
    operations:
      add: { method: POST, extract: { id: $.data.id } }
  report:
    operations:
      get:
        path: '/r/{{item[2].id}}'
        headers: { Authorization: "Basic {{$.base64.encode('{{account.key}}:x')}}" }
`);
    expect(g.edgesOf('report.get').map((e) => `${e.to} ${e.via}`)).toEqual(['item.add {{item[2].id}}', 'account.open {{account.key}}']);
  });

  it('one edge per target and kind, from the first reference', async () => {
    const g = await graphOf(`
resources:
  order:
    operations:
      create: { method: POST, extract: { id: $.data.id, n: $.data.n } }
      get:
        path: '/orders/{{order.id}}'
        headers: { X-N: '{{order.n}}' }
        depends_on: [order.create]
`);
    expect(edgeLines(g)).toEqual(['order.get -> order.create (explicit order.create)', 'order.get -> order.create (implicit {{order.id}})']);
    expect(g.needs[1]).toEqual([0]);
    expect(g.edgeBetween('order.get', 'order.create')?.kind).toBe('explicit');
  });
});

describe('for_each', () => {
  it('binds {{resource.field}} of the iterated resource to the instance: no implicit edge to its producer', async () => {
    const g = await graphOf(`
resources:
  order:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
      list: { extract: { id: '$.data[*].id' } }
      cancel_each:
        method: DELETE
        for_each: order
        depends_on: [order.list]
        path: '/orders/{{order.id}}/{{item.id}}/{{order[1].id}}'
  item:
    operations:
      add: { method: POST, extract: { id: $.data.id } }
`);
    expect(edgeLines(g)).toEqual([
      'order.cancel_each -> order.list (explicit order.list)',
      'order.cancel_each -> item.add (implicit {{item.id}})',
      'order.cancel_each -> order.create (implicit {{order[1].id}})',
    ]);
  });
});

describe('explicit edges', () => {
  it('come from depends_on with the path of the entry; unknown targets make no edge', async () => {
    const g = await graphOf(`
resources:
  post:
    operations:
      create: { method: POST }
      publish: { method: POST }
      read:
        depends_on: [post.create, post.nope, 7, post.publish]
`);
    const edges = g.edgesOf('post.read');
    expect(edges.map((e) => [e.to, e.kind, e.via, e.yamlPath.join('/')])).toEqual([
      ['post.create', 'explicit', 'post.create', 'resources/post/operations/read/depends_on/0'],
      ['post.publish', 'explicit', 'post.publish', 'resources/post/operations/read/depends_on/3'],
    ]);
  });
});

describe("references in the operation's actor", () => {
  const ACTORS = `
actors:
  tenant_admin:
    auth:
      strategy: simple
      method: POST
      path: /login
      body: { tenant: '{{tenant.id}}', password: '{{secret.PW}}' }
      extract: { token: '$.data.{{not.a.template}}' }
    inject:
      headers: { Authorization: 'Bearer {{tenant_admin.token}}', X-Org: '{{org.id}}' }
  auditor:
    auth:
      strategy: chain
      steps:
        - id: one
          method: POST
          path: '/otp/{{region.code}}'
          extract: { token: '{{never.parsed}}' }
    session:
      ttl: 15m
      refresh: { method: POST, path: '/refresh/{{zone.id}}' }
resources:
  tenant:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
  org:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
  region:
    operations:
      create: { method: POST, extract: { code: $.data.code } }
  zone:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
  doc:
    operations:
      write: { method: POST, actor: tenant_admin }
      read: { headers: { X-Audit: '{{auditor.token}}' } }
      public: {}
`;

  it('auth and inject references of the actor are edges of each of its operations', async () => {
    const g = await graphOf(ACTORS);
    // extraction paths are not templates, at login as in operations
    expect(g.sitesOf('actor', 'tenant_admin').map((s) => s.raw)).toEqual(['{{tenant.id}}', '{{secret.PW}}', '{{tenant_admin.token}}', '{{org.id}}']);
    expect(g.sitesOf('actor', 'auditor').map((s) => s.raw)).toEqual(['{{region.code}}', '{{zone.id}}']);
    expect(g.edgesOf('doc.write').map((e) => [e.to, e.via, e.site?.owner.kind, e.site?.section, e.yamlPath.join('/')])).toEqual([
      ['org.create', '{{org.id}}', 'actor', 'inject', 'actors/tenant_admin/inject/headers/X-Org'],
      ['tenant.create', '{{tenant.id}}', 'actor', 'auth', 'actors/tenant_admin/auth/body/tenant'],
    ]);
  });

  it("reading another actor's session needs that actor's login (chain steps, session.refresh), not its inject", async () => {
    const g = await graphOf(ACTORS);
    expect(g.edgesOf('doc.read').map((e) => `${e.to} ${e.via} ${e.site?.section}`)).toEqual([
      'region.create {{region.code}} auth',
      'zone.create {{zone.id}} session',
    ]);
    expect(g.edgesOf('doc.public')).toEqual([]);
  });

  it('an actor operation that is the only producer of its login reference gets no edge', async () => {
    const g = await graphOf(`
actors:
  admin:
    auth: { strategy: simple, method: POST, path: '/login/{{tenant.id}}' }
resources:
  tenant:
    operations:
      create: { method: POST, actor: admin, extract: { id: $.data.id } }
`);
    expect(g.edgesOf('tenant.create')).toEqual([]);
    expect(g.selfProduced.map((s) => `${s.opId} ${s.site.raw} ${s.site.owner.kind}`)).toEqual(['tenant.create {{tenant.id}} actor']);
  });
});

describe('a name that is both an actor and a resource (spec 2.8: the session first)', () => {
  const SHARED = (auth: string, session = '{}') => `
actors:
  user:
    auth: ${auth}
    session: ${session}
resources:
  user:
    operations:
      create: { method: POST, extract: { id: $.data.id, token: $.data.api_token } }
  post:
    operations:
      create: { method: POST, path: '/users/{{user.id}}/posts', headers: { X-T: '{{user.token}}' } }
`;

  it("a field the login does not provide is the resource's: the operation extracting it runs first", async () => {
    const g = await graphOf(SHARED('{ strategy: simple, method: POST, path: /login, extract: { token: $.data.token } }'));
    const [id, token] = g.sitesOf('operation', 'post.create');
    expect([id.raw, id.class, token.raw, token.class]).toEqual(['{{user.id}}', 'resource', '{{user.token}}', 'actor']);
    expect(g.edgesOf('post.create').map((e) => `${e.to} ${e.via} ${e.kind}`)).toEqual(['user.create {{user.id}} implicit']);
  });

  it("a field the login extracts (a chain step, or a strategy such as jwt or oauth2) stays the actor's", async () => {
    const chain = await graphOf(SHARED('{ strategy: chain, steps: [{ id: a, path: /a }, { id: b, path: /b, extract: { id: $.data.user_id } }] }'));
    expect(chain.sitesOf('operation', 'post.create').map((s) => s.class)).toEqual(['actor', 'resource']);
    expect(chain.edgesOf('post.create').map((e) => `${e.to} ${e.via}`)).toEqual(['user.create {{user.token}}']);
    const jwt = await graphOf(SHARED("{ strategy: jwt, secret: '{{secret.K}}' }"));
    expect(jwt.sitesOf('operation', 'post.create').map((s) => s.class)).toEqual(['resource', 'actor']);
    const bearer = await graphOf(SHARED("{ strategy: bearer, token: '{{secret.K}}' }"));
    expect(bearer.sitesOf('operation', 'post.create').map((s) => s.class)).toEqual(['resource', 'resource']);
    expect(loginFields((await loadInline(SHARED('{ strategy: oauth2_password }'))).actors.get('user'))).toContain('access_token');
  });

  it("a field extracted only by session.refresh is not in the first session: the resource's", async () => {
    const g = await graphOf(
      SHARED("{ strategy: bearer, token: '{{secret.K}}' }", '{ ttl: 1h, refresh: { method: POST, path: /r, extract: { id: $.data.id } } }'),
    );
    expect(g.sitesOf('operation', 'post.create')[0].class).toBe('resource');
  });
});

describe('reference sites', () => {
  it('classify in the order of spec 2.8 and keep owner, section, nesting and path', async () => {
    const g = await graphOf(`
environment:
  variables:
    baseUrl: 'http://localhost'
    auth: 'Bearer {{secret.TOKEN}}'
actors:
  order:
    auth: { strategy: jwt, secret: '{{secret.T}}' }
resources:
  order:
    operations:
      create:
        method: POST
        path: '/{{env.prefix}}/{{order.token}}/{{order[1].id}}/{{nobody.x}}/{{$.random}}/{{order.id}}'
        body: { when: '{{$.now + 1h}}', who: "{{$.url.encode('{{$.faker.email}}')}}" }
`);
    const op = g.sitesOf('operation', 'order.create');
    expect(op.map((s) => [s.raw, s.class, s.section, s.nested])).toEqual([
      ['{{env.prefix}}', 'env', 'path', false],
      ['{{order.token}}', 'actor', 'path', false], // an actor comes before a resource of the same name (jwt's login provides token)
      ['{{order[1].id}}', 'resource', 'path', false], // an indexed form is never an actor
      ['{{nobody.x}}', 'undefined-scope', 'path', false],
      ['{{$.random}}', 'syntax-error', 'path', false],
      ['{{order.id}}', 'resource', 'path', false], // the login does not provide id: the resource answers
      ['{{$.now + 1h}}', 'builtin', 'body', false],
      ["{{$.url.encode('{{$.faker.email}}')}}", 'builtin', 'body', false],
      ['{{$.faker.email}}', 'builtin', 'body', true],
    ]);
    expect(op[4].message).toMatch(/does not exist/);
    const env = g.sitesOf('environment', 'default');
    expect(env.map((s) => [s.raw, s.class, s.yamlPath.join('/')])).toEqual([['{{secret.TOKEN}}', 'secret', 'environment/variables/auth']]);
    expect(g.sitesOf('actor', 'order').map((s) => s.yamlPath.join('/'))).toEqual(['actors/order/auth/secret']);
    expect(g.refs).toHaveLength(op.length + 2);
  });
});

describe('walkTemplates', () => {
  it('yields every string with its path, skipping secrets and other scalars', () => {
    const value = { a: 'x', b: [1, 'y', { c: 'z {{order.id}}' }], s: secretRef('PW'), n: null, t: true };
    expect(walkTemplates(value, ['body'])).toEqual([
      { text: 'x', yamlPath: ['body', 'a'] },
      { text: 'y', yamlPath: ['body', 'b', 1] },
      { text: 'z {{order.id}}', yamlPath: ['body', 'b', 2, 'c'] },
    ]);
    expect(walkTemplates('top', ['path'])).toEqual([{ text: 'top', yamlPath: ['path'] }]);
    expect(walkTemplates(secretRef('X'), [])).toEqual([]);
    expect(walkTemplates(undefined, [])).toEqual([]);
  });
});

describe('graph of an empty project', () => {
  it('has no operations, edges or references', async () => {
    const g = buildGraph((await graphOf('')).project);
    expect([g.size, g.refs.length, g.edges.length]).toEqual([0, 0, 0]);
  });
});
