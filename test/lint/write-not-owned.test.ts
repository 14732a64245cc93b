// W_WRITE_NOT_OWNED: a write on an instance that a list or a for_each feeds is flagged before a
// run refuses to send it (E_NOT_OWNED); `acts_on: existing` or the run's own create is fine.
import { afterAll } from 'vitest';
import { cleanProjects } from '../helpers/project.js';
import { runTables, y, type CodeTable } from './helpers.js';

const items = (...ops: string[]) => ({ 'resources/item.yaml': y('operations:', ...ops.map((l) => `  ${l}`)) });
const LIST = 'list: { path: /items, extract: { id: "$.data[*].id" } }';
const CREATE = 'create: { method: POST, path: /items, extract: { id: $.data.id } }';
const TITLE = 'title: { method: PUT, path: "/items/{{item.id}}/locales/{{locale.code}}/title" }';
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
    ],
    keeps: [
      { name: 'the declaration', files: items(LIST, 'delete: { method: DELETE, path: "/items/{{item.id}}", acts_on: existing }') },
      { name: 'only a create feeds it', files: items(CREATE, 'delete: { method: DELETE, path: "/items/{{item.id}}" }') },
      { name: 'a read of a listed one', files: items(LIST, 'get: { path: "/items/{{item.id}}" }') },
      {
        // a scope the server has (no create), past the run's own item: the write acts on the item
        name: 'a write past a listed locale on the item a create made',
        files: { ...items(CREATE, TITLE), ...LOCALES },
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
