// `flow graph --format mermaid`: a golden file pins the example project's flowchart, and the
// real Mermaid parser (the `mermaid` package, 11.x, under Node with jsdom as its DOM: its
// DOMPurify needs a window) reads it and the run report's graph back: nodes, labels,
// subgraphs and edge styles, with names that would break an unescaped flowchart.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { buildGraph } from '../../src/graph/index.js';
import { loadProject } from '../../src/project/index.js';
import { mermaidGraph } from '../../src/report/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const GOLDEN = path.join(REPO, 'test/fixtures/report/golden');

interface Parsed {
  vertices: Map<string, string>;
  edges: Array<{ start: string; end: string; text: string; stroke: string }>;
  subgraphs: Array<{ title: string; nodes: string[] }>;
}

let mermaid: typeof import('mermaid').default;

beforeAll(async () => {
  const { window } = new JSDOM('');
  Object.assign(globalThis, { window, document: window.document });
  mermaid = (await import('mermaid')).default;
  mermaid.initialize({ startOnLoad: false });
});

afterAll(async () => {
  // the window goes with this file: other files share this process (isolate: false), and a
  // library that sees a `window` takes itself for a browser (the OpenAPI reader resolves paths
  // against the page's URL)
  const g = globalThis as { window?: { close(): void }; document?: unknown };
  g.window?.close();
  delete g.window;
  delete g.document;
  await cleanProjects();
});

/** Mermaid's reading of the text: it throws on a syntax error. Entity codes decoded as a browser would. */
async function parse(text: string): Promise<Parsed> {
  await mermaid.parse(text);
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db as any;
  const decode = (s: string) => s.replace(/ﬂ°°(\d+)¶ß/g, (_, n) => String.fromCodePoint(Number(n))).replace(/<br\s*\/?>/g, '\n');
  return {
    vertices: new Map([...db.getVertices().values()].map((v: any) => [v.id, decode(v.text)])),
    edges: db.getEdges().map((e: any) => ({ start: e.start, end: e.end, text: decode(e.text ?? ''), stroke: e.stroke })),
    subgraphs: db.getSubGraphs().map((s: any) => ({ title: decode(s.title), nodes: [...s.nodes].sort() })),
  };
}

async function flowGraph(args: string[]) {
  const rec = recordedIO({ cwd: REPO });
  const code = await main(['graph', ...args], rec.io);
  return { code, out: rec.out(), err: rec.err() };
}

describe('flow graph --format mermaid', () => {
  it('the example project: the golden flowchart', async () => {
    const r = await flowGraph(['-p', 'example-project', '-f', 'mermaid']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const file = path.join(GOLDEN, 'example-graph.mmd');
    if (process.env.UPDATE_GOLDEN) writeFileSync(file, r.out);
    expect(r.out).toBe(readFileSync(file, 'utf8'));
  });

  it('Mermaid reads it back: a subgraph per resource, METHOD path labels, fields on solid edges, depends_on dashed, actors where they log in', async () => {
    const g = await parse(readFileSync(path.join(GOLDEN, 'example-graph.mmd'), 'utf8'));
    expect(g.subgraphs.map((s) => s.title)).toEqual(['attachment', 'category', 'order', 'product', 'report']);
    expect(g.subgraphs.find((s) => s.title === 'order')!.nodes).toEqual(['op_order__cancel', 'op_order__create', 'op_order__get']);
    expect(g.vertices.get('op_order__get')).toBe('get\nGET /api/v1/orders/{{order.id}}');
    const edge = (start: string, end: string) => g.edges.filter((e) => e.start === start && e.end === end);
    expect(edge('op_order__create', 'op_order__get')).toEqual([{ start: 'op_order__create', end: 'op_order__get', text: 'order.id', stroke: 'normal' }]);
    expect(edge('op_product__publish', 'op_order__create')).toEqual([expect.objectContaining({ text: '', stroke: 'dotted' })]);
    // admin logs in (simple); partner's key goes with its first request
    expect(g.vertices.get('actor_admin')).toBe('actor admin (simple)');
    expect(edge('actor_admin', 'op_product__create')).toEqual([expect.objectContaining({ text: 'logs in', stroke: 'dotted' })]);
    expect(edge('actor_partner', 'op_category__list')).toEqual([expect.objectContaining({ text: 'first request' })]);
    // every operation, every edge of the graph (11 operations, 11 edges, 3 actors)
    expect([...g.vertices.keys()].filter((k) => k.startsWith('op_'))).toHaveLength(11);
    expect(g.edges.filter((e) => !e.start.startsWith('actor_'))).toHaveLength(11);
  });

  it('with operations given, only they and their prerequisites', async () => {
    const r = await flowGraph(['-p', 'example-project', '-f', 'mermaid', 'order.get']);
    const g = await parse(r.out);
    expect([...g.vertices.keys()].filter((k) => k.startsWith('op_')).sort()).toEqual([
      'op_order__create',
      'op_order__get',
      'op_product__create',
      'op_product__publish',
    ]);
    expect(g.subgraphs.map((s) => s.title)).toEqual(['order', 'product']);
    expect([...g.vertices.keys()].filter((k) => k.startsWith('actor_'))).toEqual(['actor_admin', 'actor_partner']);
  });

  it('any name renders: quotes, HTML, #, |, backticks, arrows, keywords and spaces in ids and labels', async () => {
    const dir = await writeProject({
      'flow.yaml': [
        'version: 1',
        'name: "odd\\nnames %% here"',
        'environment: { name: local, variables: { baseUrl: "http://127.0.0.1:1" } }',
        'resources:',
        '  end:',
        '    operations:',
        '      \'a"b\': { path: "/x?<y>&z=#1|2", extract: { id: $.data.id } }',
        '      graph: { path: "/g/{{end.id}}" }',
        '      with space: { method: POST, path: "/`tick`", depends_on: [end.graph] }',
        '  "sub graph":',
        '    operations:',
        '      "x-->y;%%": { path: "/{{end.id}}/[a]{b}(c)" }',
      ].join('\n'),
    });
    const project = await loadProject(dir);
    const text = mermaidGraph(project, buildGraph(project));
    const g = await parse(text);
    expect([...g.vertices.values()].sort()).toEqual(
      ['a"b\nGET /x?<y>&z=#1|2', 'graph\nGET /g/{{end.id}}', 'with space\nPOST /`tick`', 'x-->y;%%\nGET /{{end.id}}/[a]{b}(c)'].sort(),
    );
    expect(new Set(g.vertices.keys()).size).toBe(4);
    expect(g.subgraphs.map((s) => s.title)).toEqual(['end', 'sub graph']);
    expect(g.edges.map((e) => [e.text, e.stroke])).toEqual([
      ['end.id', 'normal'],
      ['', 'dotted'],
      ['end.id', 'normal'],
    ]);
  });

  it('the parser is real: an unescaped quote in a label is refused', async () => {
    await expect(mermaid.parse('flowchart LR\n  a["x"y"]')).rejects.toThrow(/Parse error/);
  });

  it("the run report's graph (golden run.md) parses, each node classed by its outcome", async () => {
    const md = readFileSync(path.join(GOLDEN, 'run.md'), 'utf8');
    const block = /```mermaid\n([\s\S]*?)```/.exec(md)![1];
    const g = await parse(block);
    expect(g.vertices.get('op_invoice__send')).toBe('↷ send\nPOST /invoices/{{invoice.id}}/send');
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(block);
    const classes = Object.fromEntries([...(diagram.db as any).getVertices().values()].map((v: any) => [v.id, v.classes]));
    expect(classes).toMatchObject({ op_invoice__create: ['failed'], op_product__stock: ['failed'], op_invoice__send: ['skipped'], op_order__get: ['passed'] });
  });
});
