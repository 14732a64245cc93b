import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/index.js';
import { lint } from '../../src/lint/index.js';
import type { Rule } from '../../src/lint/rule.js';
import cycles from '../../src/lint/rules/cycles.js';
import fieldsExtracted from '../../src/lint/rules/fields-extracted.js';
import { RULES } from '../../src/lint/rules/index.js';
import references from '../../src/lint/rules/references.js';
import sharedNames from '../../src/lint/rules/shared-names.js';
import targets from '../../src/lint/rules/targets.js';
import templateSyntax from '../../src/lint/rules/template-syntax.js';
import { loadProject } from '../../src/project/index.js';
import { cleanProjects } from '../helpers/project.js';
import { graphOf, loadFiles, runRule } from './helpers.js';

afterAll(cleanProjects);

const FIXTURES = path.join(import.meta.dirname, '../fixtures/graph');

/** `line code message` for each finding of `rule` on an inline project. */
async function findings(rule: Rule, body: string): Promise<string[]> {
  return runRule(rule, await graphOf(body)).map((f) => `${f.line} ${f.code} ${f.message}`);
}

describe('the graph rules are registered', () => {
  it.each([templateSyntax, references, sharedNames, targets, cycles, fieldsExtracted])('$id', (rule) => {
    expect(RULES).toContain(rule);
  });
});

describe('E_TEMPLATE_SYNTAX', () => {
  it('reports every malformed reference, nonexistent builtins included, at its line', async () => {
    expect(
      await findings(
        templateSyntax,
        `
resources:
  order:
    operations:
      create:
        path: '/x/{{$.random}}'
        body:
          at: '{{$.timestamp}}'
          on: '{{ $.date }}'
          id: '{{order.id'
          b64: "{{$.base64.encode('{{$.uuid()}}')}}"
`,
      ),
    ).toEqual([
      expect.stringMatching(/^7 E_TEMPLATE_SYNTAX "\$\.random" does not exist: only \$\.uuid, \$\.now and \$\.faker\.\* generate values$/),
      expect.stringMatching(/^9 E_TEMPLATE_SYNTAX "\$\.timestamp" does not exist/),
      expect.stringMatching(/^10 E_TEMPLATE_SYNTAX "\$\.date" does not exist/),
      expect.stringMatching(/^11 E_TEMPLATE_SYNTAX unclosed "\{\{" in "\{\{order\.id"$/),
      expect.stringMatching(/^12 E_TEMPLATE_SYNTAX "\$\.uuid\(\)" is not a known builtin/),
    ]);
  });

  it('a faker name the runtime does not know, with the closest one (it used to fail only at run time)', async () => {
    expect(
      await findings(
        templateSyntax,
        `
resources:
  user:
    operations:
      create:
        body: { email: '{{$.faker.emial}}', first: '{{$.faker.first_name}}', size: "{{$.url.encode('{{$.faker.shoeSize}}')}}" }
`,
      ),
    ).toEqual([
      '7 E_TEMPLATE_SYNTAX "$.faker.emial": unknown faker "emial" (did you mean email?)',
      expect.stringMatching(/^7 E_TEMPLATE_SYNTAX "\$\.faker\.shoeSize": unknown faker "shoeSize"; known: email, phone, /),
    ]);
  });

  it('keeps quiet on every valid form', async () => {
    expect(
      await findings(
        templateSyntax,
        `
resources:
  order:
    operations:
      create:
        path: '/x/{{$.uuid}}/{{order[1].id}}'
        body: { a: '{{$.now - 30m}}', b: '{{$.faker.email}}', c: "{{$.hex.encode('{{env.x}}')}}", d: 'no refs }}' }
`,
      ),
    ).toEqual([]);
  });
});

describe('E_REF_UNDEFINED: references', () => {
  it('names the missing scope, env variable or form, with a suggestion', async () => {
    expect(
      await findings(
        references,
        `
environment:
  variables: { baseUrl: 'http://x' }
actors:
  admin: { auth: { strategy: bearer, token: '{{secret.T}}' } }
resources:
  order:
    operations:
      create:
        path: '/{{ordr.id}}'
        headers: { X-Base: '{{env.baseUrll}}', X-A: '{{admin[1].token}}' }
        body: { id: '{{order.create.id}}', n: '{{order[2].get.id}}', z: '{{zzz.q}}' }
        extract: { id: $.data.id }
      get: {}
`,
      ),
    ).toEqual([
      '11 E_REF_UNDEFINED {{ordr.id}}: "ordr" is not an actor, a resource, env or secret (did you mean order?)',
      '12 W_ENV_NOT_DEFINED {{env.baseUrll}}: no environment defines baseUrll (did you mean baseUrl?); give it with --var baseUrll=… or FLOW_VAR_baseUrll, or add it to an environment',
      '12 E_REF_UNDEFINED {{admin[1].token}}: "admin" is an actor, and an actor has one session, not numbered instances: write {{admin.token}}',
      '13 E_REF_UNDEFINED {{order.create.id}}: there is no {{resource.operation.field}} form; extractions belong to the resource: use {{order.id}}',
      '13 E_REF_UNDEFINED {{order[2].get.id}}: there is no {{resource.operation.field}} form; extractions belong to the resource: use {{order[2].id}}',
      '13 E_REF_UNDEFINED {{zzz.q}}: "zzz" is not an actor, a resource, env or secret',
    ]);
  });

  it('an env variable is defined when some environment defines it; else a warning, as --var may give it', async () => {
    const project = await loadFiles({
      'flow.yaml': 'version: 1\nimports: [environments/*.yaml, resources/*.yaml]\n',
      'environments/dev.yaml': 'variables: { baseUrl: http://dev, devOnly: x }\n',
      'environments/ci.yaml': 'variables: { baseUrl: http://ci }\n',
      'resources/r.yaml': "operations:\n  x: { path: '/{{env.devOnly}}/{{env.ciOnly}}' }\n",
    });
    expect(runRule(references, buildGraph(project)).map((f) => `${f.rel}:${f.line} ${f.code} ${f.message}`)).toEqual([
      'resources/r.yaml:2 W_ENV_NOT_DEFINED {{env.ciOnly}}: no environment defines ciOnly; give it with --var ciOnly=… or FLOW_VAR_ciOnly, or add it to an environment',
    ]);
    // A warning: it does not fail lint, so `flow run --var ciOnly=…` is not refused.
    expect(lint(project)).toMatchObject({ errors: 0, warnings: 1, ok: true });
  });

  it('reports in multi-file projects at the file and line, and in a project without environments', async () => {
    const project = await loadProject(path.join(FIXTURES, 'broken'));
    const found = runRule(references, buildGraph(project)).map((f) => `${f.rel}:${f.line} ${f.message}`);
    expect(found).toEqual([
      'resources/posts.yaml:10 {{autor.id}}: "autor" is not an actor, a resource, env or secret',
      'resources/posts.yaml:15 {{post.create.id}}: there is no {{resource.operation.field}} form; extractions belong to the resource: use {{post.id}}',
      'resources/posts.yaml:18 {{env.prefix}}: no environment defines prefix; give it with --var prefix=… or FLOW_VAR_prefix, or add it to an environment',
    ]);
    expect(await findings(references, `resources:\n  r:\n    operations:\n      x: { path: '/{{env.a}}' }\n`)).toEqual([
      '5 W_ENV_NOT_DEFINED {{env.a}}: no environment defines a; give it with --var a=… or FLOW_VAR_a, or add it to an environment',
    ]);
  });

  it('keeps quiet when every scope exists (a field sharing an operation name is a field)', async () => {
    expect(
      await findings(
        references,
        `
environment:
  variables: { baseUrl: 'http://x', prefix: v1 }
actors:
  admin: { auth: { strategy: bearer, token: '{{secret.T}}' }, inject: { headers: { X: '{{env.prefix}}' } } }
resources:
  order:
    operations:
      create: { extract: { id: $.data.id, get: $.data.links } }
      get: { path: '/{{env.prefix}}/{{order.id}}/{{order.get.self}}/{{admin.token}}/{{secret.S}}/{{order[3].id}}' }
`,
      ),
    ).toEqual([]);
  });
});

describe('W_NAME_SHARED', () => {
  const SHARED = `
actors:
  user: { auth: { strategy: simple, method: POST, path: /login, extract: { token: $.data.token } } }
  admin: { auth: { strategy: bearer, token: '{{secret.T}}' } }
resources:
  user:
    operations:
      create: { method: POST, extract: { id: $.data.id } }
  admin:
    operations:
      create: { method: POST }
`;

  it('warns at each actor that a resource shares the name of, saying what its session answers', async () => {
    expect(await findings(sharedNames, SHARED)).toEqual([
      "4 W_NAME_SHARED user is both an actor and a resource: {{user.<field>}} reads the actor's session first (docs/format.md#references); its login provides token; any other field is the resource's",
      "5 W_NAME_SHARED admin is both an actor and a resource: {{admin.<field>}} reads the actor's session first (docs/format.md#references); its login provides no field, so every field is the resource's",
    ]);
  });

  it('in files: at the name: key of the actor file, a warning that does not fail lint', async () => {
    const project = await loadFiles({
      'flow.yaml': 'version: 1\nimports: [actors/*.yaml, resources/*.yaml]\n',
      'actors/user.yaml': '# the person signing in\nname: user\nauth: { strategy: jwt, secret: "{{secret.K}}" }\n',
      'resources/users.yaml': 'name: user\noperations:\n  create: { method: POST, path: /users, extract: { id: $.data.id } }\n',
    });
    const result = lint(project);
    expect(result.diagnostics.map((d) => `${path.relative(project.dir, d.file)}:${d.line}:${d.col} ${d.code} ${d.severity}`)).toEqual([
      'actors/user.yaml:2:1 W_NAME_SHARED warning',
    ]);
    expect(result.ok).toBe(true);
  });

  it('keeps quiet when no actor shares a resource name', async () => {
    expect(await findings(sharedNames, SHARED.replace(/^ {2}user:/m, '  member:').replace(/^ {2}admin: \{ auth/m, '  root: { auth'))).toEqual([]);
  });
});

describe('E_REF_UNDEFINED: depends_on, actor, for_each', () => {
  it('an actor whose file exists but no import pattern loads: says so, and which pattern would', async () => {
    const project = await loadFiles({
      'flow.yaml': 'version: 1\nname: p\nimports: [resources/*.yaml]\n',
      'actors/admin.yaml': 'name: admin\nauth: { strategy: bearer, token: "{{secret.T}}" }\n',
      'resources/items.yaml': 'name: item\noperations:\n  list: { path: /items, actor: admin }\n  get: { path: /items/1, actor: adm }\n',
    });
    expect(runRule(targets, buildGraph(project)).map((f) => f.message)).toEqual([
      'actor "admin" is not an actor of this project: actors/admin.yaml exists, but no pattern of flow.yaml\'s `imports` loads it (add "actors/*.yaml")',
      'actor "adm" is not an actor of this project',
    ]);
  });

  it('names the missing target with a suggestion, at the entry', async () => {
    const project = await loadProject(path.join(FIXTURES, 'broken'));
    const found = runRule(targets, buildGraph(project)).map((f) => `${f.rel}:${f.line} ${f.code} ${f.message}`);
    expect(found).toEqual([
      'resources/posts.yaml:6 E_REF_UNDEFINED actor "usr" is not an actor of this project (did you mean user?)',
      'resources/posts.yaml:20 E_REF_UNDEFINED depends_on "post.craete" is not an operation (did you mean post.create?)',
      'resources/posts.yaml:19 E_REF_UNDEFINED for_each "posts" names no resource (did you mean post?)',
    ]);
  });

  it('keeps quiet when every name exists', async () => {
    expect(
      await findings(
        targets,
        `
actors:
  admin: { auth: { strategy: bearer, token: '{{secret.T}}' } }
resources:
  order:
    operations:
      list: { actor: admin, extract: { id: '$.data[*].id' } }
      each: { for_each: order, depends_on: [order.list], path: '/{{order.id}}' }
`,
      ),
    ).toEqual([]);
  });
});

describe('E_CYCLE', () => {
  it('prints the path and why, once, at the first operation of the cycle', async () => {
    expect(
      await findings(
        cycles,
        `
resources:
  a:
    operations:
      x:
        path: '/a/{{b.id}}'
        extract: { id: $.data.id }
  b:
    operations:
      y:
        depends_on: [a.x]
        extract: { id: $.data.id }
`,
      ),
    ).toEqual(['7 E_CYCLE circular dependency a.x -> b.y -> a.x: a.x reads {{b.id}}, extracted by b.y, b.y depends_on a.x; remove the unneeded edge']);
  });

  it('a 3-cycle and a self-cycle, each reported once, with references through actors', async () => {
    expect(
      await findings(
        cycles,
        `
actors:
  admin: { auth: { strategy: simple, path: '/login/{{c.id}}' } }
resources:
  a:
    operations:
      x: { depends_on: [b.y], extract: { id: $.data.id } }
  b:
    operations:
      y: { depends_on: [c.z] }
  c:
    operations:
      z: { actor: admin, path: '/{{a.id}}' }
      me:
        depends_on:
          - c.me
      maker: { extract: { id: $.data.id } }
`,
      ),
    ).toEqual([
      '8 E_CYCLE circular dependency a.x -> b.y -> c.z -> a.x: a.x depends_on b.y, b.y depends_on c.z, c.z reads {{a.id}}, extracted by a.x; remove the unneeded edge',
      '17 E_CYCLE circular dependency c.me -> c.me: c.me depends_on c.me; remove the unneeded edge',
    ]);
  });

  it('keeps quiet on an acyclic project', async () => {
    const project = await loadProject(path.join(FIXTURES, 'shop'));
    expect(runRule(cycles, buildGraph(project))).toEqual([]);
  });
});

describe('W_FIELD_NOT_EXTRACTED', () => {
  it('a field no operation extracts, or that only the reader extracts (also through its actor)', async () => {
    expect(
      await findings(
        fieldsExtracted,
        `
actors:
  admin: { auth: { strategy: simple, path: '/login/{{tenant.id}}' } }
resources:
  tenant:
    operations:
      create: { actor: admin, extract: { id: $.data.id } }
  order:
    operations:
      create: { extract: { id: $.data.id, status: $.data.status } }
      get: { path: '/{{order.idd}}/{{empty.id}}/{{order.create.id}}' }
      refresh: { path: '/{{order.token}}', extract: { token: $.data.token } }
  empty:
    operations:
      noop: {}
`,
      ),
    ).toEqual([
      '12 W_FIELD_NOT_EXTRACTED {{order.idd}}: no operation of order extracts "idd" (did you mean id?)',
      '12 W_FIELD_NOT_EXTRACTED {{empty.id}}: no operation of empty extracts "id" (it extracts nothing)',
      '4 W_FIELD_NOT_EXTRACTED {{tenant.id}}: only tenant.create extracts it, and tenant.create reads it (through actor admin): nothing provides it before tenant.create runs',
      '13 W_FIELD_NOT_EXTRACTED {{order.token}}: only order.refresh extracts it, and order.refresh reads it: nothing provides it before order.refresh runs',
    ]);
  });

  it('keeps quiet when every field has a producer', async () => {
    const project = await loadProject(path.join(FIXTURES, 'shop'));
    expect(runRule(fieldsExtracted, buildGraph(project))).toEqual([]);
  });
});

describe('a clean multi-file project', () => {
  it('passes every graph rule', async () => {
    const project = await loadProject(path.join(FIXTURES, 'shop'));
    expect(project.diagnostics).toEqual([]);
    const graph = buildGraph(project);
    for (const rule of [templateSyntax, references, sharedNames, targets, cycles, fieldsExtracted]) expect(runRule(rule, graph)).toEqual([]);
  });
});
