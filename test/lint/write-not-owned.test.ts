// W_WRITE_NOT_OWNED: a write on an instance that a list or a for_each feeds is flagged before a
// run refuses to send it (E_NOT_OWNED); `acts_on: existing` or the run's own create is fine.
import { afterAll } from 'vitest';
import { cleanProjects } from '../helpers/project.js';
import { runTables, y, type CodeTable } from './helpers.js';

const items = (...ops: string[]) => ({ 'resources/item.yaml': y('operations:', ...ops.map((l) => `  ${l}`)) });
const LIST = 'list: { path: /items, extract: { id: "$.data[*].id" } }';
const CREATE = 'create: { method: POST, path: /items, extract: { id: $.data.id } }';
const TITLE = 'title: { method: PUT, path: "/items/{{item.id}}/locales/{{locale.code}}/title" }';
const PROJECTS = { 'resources/project.yaml': y('operations:', '  list: { path: /projects, extract: { id: "$.data[*].id" } }') };
const tokens = (...ops: string[]) => ({ 'resources/token.yaml': y('operations:', ...ops.map((l) => `  ${l}`)) });
/** a POST expected to answer 201 in a collection of tokens (one token is addressed under its path): it makes a token */
const TOKEN_CREATE = 'create: { method: POST, path: "/projects/{{project.id}}/tokens", expect_status: 201 }';
const TOKEN_GET = 'get: { path: "/projects/{{project.id}}/tokens/{{env.token}}" }';
/** a link's create answers 204; its flag's read lists the links */
const links = (url: string) => ({
  'resources/link.yaml': y(
    'operations:',
    `  create: { method: POST, path: "/flags/{{env.flag}}/link", body: { url: "${url}" }, expect_status: 204 }`,
    '  find: { path: "/flags/{{env.flag}}", depends_on: [link.create], extract: { id: "$.data.links[*].id" } }',
    '  delete: { method: DELETE, path: "/flags/{{env.flag}}/link/{{link.id}}" }',
  ),
});
const LOCALES = { 'resources/locale.yaml': y('operations:', '  list: { path: /locales, extract: { code: "$.data[*].code" } }') };

const TABLES: CodeTable[] = [
  {
    code: 'W_WRITE_NOT_OWNED',
    breaks: [
      {
        name: 'a DELETE whose id a list extracts',
        files: items(CREATE, LIST, 'delete: { method: DELETE, path: "/items/{{item.id}}", depends_on: [item.list] }'),
        expect: ['resources/item.yaml:4:35'],
        message: /^DELETE acts on a item that item\.list fills from what the server lists: .*add "acts_on: existing"$/,
      },
      {
        name: 'a PATCH under for_each',
        files: items(
          'all: { path: /items, extract: { key: "$.data[*].key" } }',
          'touch: { method: PATCH, path: "/items/{{item.key}}", for_each: item, depends_on: [item.all] }',
        ),
        expect: ['resources/item.yaml:3:33'],
        message: /its for_each fills/,
      },
      {
        // past a scope the server has, the write acts on the item before it: a listed one
        name: 'a write past a locale on an item a list extracts',
        files: { ...items(CREATE, LIST, TITLE), ...LOCALES },
        expect: ['resources/item.yaml:4:31'],
        message: /^PUT acts on a item that item\.list fills/,
      },
      {
        // no collection under it: an action on the project, whatever it answers
        name: 'a POST action past a listed project expected to answer 201',
        files: { ...PROJECTS, ...tokens('archive: { method: POST, path: "/projects/{{project.id}}/archive", expect_status: 201 }') },
        expect: ['resources/token.yaml:2:34'],
        message: /^POST acts on a project that project\.list fills/,
      },
      {
        // the create sends its url as written: the read cannot tell the run's link from another
        name: 'a write on a link a read of its flag lists, after a create whose url is a literal',
        files: links('https://example.com/doc'),
        expect: ['resources/link.yaml:4:35'],
        message: /^DELETE acts on a link that link\.find fills/,
      },
      {
        name: 'a POST to a listed project’s collection that may answer 200 too',
        files: { ...PROJECTS, ...tokens(TOKEN_CREATE.replace('201', '[200, 201]'), TOKEN_GET) },
        expect: ['resources/token.yaml:2:33'],
      },
      {
        // tokens have a create (a 201 in their collection): a token is no scope the server has, and a listed one is not the run's
        name: 'a write past a listed token, under the run’s project',
        files: {
          'resources/project.yaml': y('operations:', '  create: { method: POST, path: /projects, extract: { id: $.data.id } }'),
          ...tokens(
            TOKEN_CREATE,
            TOKEN_GET,
            'list: { path: "/projects/{{project.id}}/tokens", extract: { id: "$.data[*].id" } }',
            'revoke: { method: POST, path: "/projects/{{project.id}}/tokens/{{token.id}}/revoke" }',
          ),
        },
        expect: ['resources/token.yaml:5:33'],
        message: /^POST acts on a token that token\.list fills/,
      },
    ],
    keeps: [
      {
        // it makes a token under the listed project, and changes nothing of the project
        name: 'a POST expected to answer 201 in a collection under a listed project',
        files: { ...PROJECTS, ...tokens(TOKEN_CREATE, TOKEN_GET) },
      },
      { name: 'the declaration', files: items(LIST, 'delete: { method: DELETE, path: "/items/{{item.id}}", acts_on: existing }') },
      { name: 'only a create feeds it', files: items(CREATE, 'delete: { method: DELETE, path: "/items/{{item.id}}" }') },
      { name: 'a read of a listed one', files: items(LIST, 'get: { path: "/items/{{item.id}}" }') },
      {
        // a scope the server has (no create), past the run's own item: the write acts on the item
        name: 'a write past a listed locale on the item a create made',
        files: { ...items(CREATE, TITLE), ...LOCALES },
      },
      {
        // the read finds the item the create made by the run-unique url it sent (docs/format.md#create-no-id)
        name: 'a write on the link a read of its flag finds after a create that answers no id',
        files: links('https://example.com/doc#{{$.uuid}}'),
      },
      {
        name: 'a list of another field',
        files: items(CREATE, 'names: { path: /items, extract: { name: "$.data[*].name" } }', 'delete: { method: DELETE, path: "/items/{{item.id}}" }'),
      },
    ],
  },
];

runTables(TABLES);
afterAll(cleanProjects);
