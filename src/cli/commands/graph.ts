// `flow graph`: print the dependency graph (edges with their kind) or the schedule order.
// The graph is src/graph's; this module only picks operations and formats.
import path from 'node:path';
import { parseCommandArgs } from '../usage.js';
import { findCycles, scheduleOrder, type Edge, type ProjectGraph } from '../../graph/index.js';
import { stylishLine } from '../../lint/index.js';
import { openProject } from '../../open/index.js';
import { displayPath, locate, type Diagnostic, type Project } from '../../project/index.js';
import { mermaidGraph } from '../../report/index.js';
import { unknownOperations } from '../args.js';
import { CACHE_OPTIONS, cacheOptions, optionHelp, type OptionTable } from '../options.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { PROBLEM_EXIT, problemMessage } from '../problem.js';

const OPTIONS = {
  project: { type: 'string', short: 'p', default: '.', arg: '<dir>', help: 'project directory holding flow.yaml (default: .)' },
  format: {
    type: 'string',
    short: 'f',
    default: 'text',
    arg: '<name>',
    help: [
      'text (default), dot (Graphviz: flow graph -f dot | dot -Tsvg), json,',
      'mermaid (a flowchart GitHub and GitLab draw in Markdown: one',
      'subgraph per resource, arrows from prerequisite to dependent)',
    ],
  },
  order: {
    type: 'boolean',
    default: false,
    help: [
      'print the schedule order instead: prerequisites first, ties in',
      'declaration order, DELETEs after the other ready operations',
      '(text: one id per line; json: {"order": [...]})',
    ],
  },
  ...CACHE_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false, help: 'this help' },
} satisfies OptionTable;

const HELP = `Usage: flow graph [resource.operation...] [options]

Prints what each operation needs first: an edge "A -> B" means B runs before A.
  implicit  A reads {{resource.field}} (in its request, asserts, poll condition, or its
            actor's login and injected headers) and B is the first declared operation
            that extracts that field
  explicit  A names B in depends_on
Given operations, only they and their prerequisites are shown.

Options:
${optionHelp(OPTIONS)}Exit codes: 0 ok, 1 the project has errors (a cycle, an undefined reference …; they are
printed on stderr, after the graph), 2 usage error (unknown option, format or operation,
no such project or no flow.yaml in it).
`;

type FormatName = 'text' | 'dot' | 'json' | 'mermaid';

interface View {
  project: Project;
  graph: ProjectGraph;
  /** the operation numbers shown, in declaration order */
  shown: number[];
  cycles: string[][];
  cwd: string;
}

const GRAPH_FORMATS: Record<FormatName, (view: View) => string> = {
  text: textGraph,
  dot: dotGraph,
  json: jsonGraph,
  mermaid: ({ project, graph, shown }) => mermaidGraph(project, graph, { shown }),
};

const ORDER_FORMATS: Partial<Record<FormatName, (order: string[]) => string>> = {
  text: (order) => (order.length ? `${order.join('\n')}\n` : ''),
  json: (order) => `${JSON.stringify({ order }, null, 2)}\n`,
};

const graphCommand: Command = async (argv: string[], io: CliIO): Promise<number> => {
  const parsed = parseCommandArgs({ name: 'graph', help: HELP }, { args: argv, allowPositionals: true, strict: true, options: OPTIONS }, io);
  if (typeof parsed === 'number') return parsed;
  const { values: o, positionals } = parsed;
  if (!Object.hasOwn(GRAPH_FORMATS, o.format)) return usageError(io, `unknown format "${o.format}": use text, dot, json or mermaid`);
  const formatName = o.format as FormatName;
  const orderFormat = ORDER_FORMATS[formatName];
  if (o.order && !orderFormat) return usageError(io, `--order prints a list: use --format text or json`);

  const opened = await openProject(path.resolve(io.cwd, o.project), { cache: cacheOptions(o, io.env, io.cwd) });
  const { project, graph, problem } = opened;
  if (problem?.kind === 'not-a-project') return usageError(io, problemMessage(problem, o.project));
  const unknown = unknownOperations(positionals, project, io.cwd);
  if (unknown) return usageError(io, unknown);

  const asked = positionals.length ? positionals : undefined;
  if (graph && o.order && orderFormat) {
    io.stdout(orderFormat(scheduleOrder(graph, asked)));
  } else if (graph) {
    const shown = asked ? shownFor(graph, asked) : graph.opIds.map((_, i) => i);
    io.stdout(GRAPH_FORMATS[formatName]({ project, graph, shown, cycles: findCycles(graph), cwd: io.cwd }));
  }
  return reportErrors(opened.lint.diagnostics, io);
};

/** The asked operations and their prerequisites, in declaration order. */
function shownFor(graph: ProjectGraph, asked: string[]): number[] {
  return scheduleOrder(graph, asked)
    .map((id) => graph.indexOf.get(id)!)
    .sort((a, b) => a - b);
}

/** Lint errors go to stderr and make the exit code 1; warnings are `flow lint`'s business. */
function reportErrors(diagnostics: Diagnostic[], io: CliIO): number {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return EXIT.ok;
  for (const d of errors) io.stderr(`${stylishLine(d, io.cwd)}\n`);
  io.stderr(`flow graph: the project has ${errors.length} error(s) (flow lint shows them all)\n`);
  return PROBLEM_EXIT.lint;
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`flow graph: ${message}\n`);
  return EXIT.usage;
}

/** Why an edge exists, as one short phrase: `depends_on`, or the reference (and its actor). */
function because(edge: Edge): string {
  if (edge.kind === 'explicit') return 'depends_on';
  const owner = edge.site?.owner;
  return owner && owner.kind !== 'operation' ? `${edge.via} (${owner.kind} ${owner.id})` : edge.via;
}

function textGraph({ project, graph, shown, cycles }: View): string {
  const lines: string[] = [];
  let implicit = 0;
  let explicit = 0;
  for (const i of shown) {
    const id = graph.opIds[i];
    const op = project.operations.get(id)!;
    lines.push(`${id}  ${op.method} ${op.path || '(no path)'}`);
    const edges = graph.edges[i];
    const width = Math.max(0, ...edges.map((e) => e.to.length));
    for (const e of edges) {
      lines.push(`  -> ${e.to.padEnd(width)}  ${e.kind.padEnd(8)}  ${because(e)}`);
      if (e.kind === 'implicit') implicit++;
      else explicit++;
    }
  }
  const shownIds = new Set(shown.map((i) => graph.opIds[i]));
  const relevant = cycles.filter((c) => shownIds.has(c[0]));
  for (const c of relevant) lines.push(`cycle: ${c.join(' -> ')}`);
  lines.push(`${count(shown.length, 'operation')}, ${count(implicit + explicit, 'edge')} (${implicit} implicit, ${explicit} explicit)`);
  return `${lines.join('\n')}\n`;
}

function dotGraph({ project, graph, shown }: View): string {
  const lines = [
    `digraph ${quote(project.name)} {`,
    '  // A -> B: B runs before A (dashed: depends_on)',
    '  rankdir=LR;',
    '  node [shape=box, fontname="monospace"];',
  ];
  for (const i of shown) {
    const id = graph.opIds[i];
    const op = project.operations.get(id)!;
    lines.push(`  ${quote(id)} [tooltip=${quote(`${op.method} ${op.path}`)}];`);
  }
  for (const i of shown) {
    for (const e of graph.edges[i]) {
      const style = e.kind === 'explicit' ? 'style=dashed, ' : '';
      lines.push(`  ${quote(e.from)} -> ${quote(e.to)} [${style}label=${quote(because(e))}];`);
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function jsonGraph({ project, graph, shown, cycles, cwd }: View): string {
  const operations = shown.map((i) => {
    const id = graph.opIds[i];
    const op = project.operations.get(id)!;
    return {
      id,
      method: op.method,
      path: op.path,
      needs: graph.edges[i].map((e) => {
        const loc = locate(project, e.file, e.yamlPath);
        return {
          operation: e.to,
          kind: e.kind,
          via: e.kind === 'explicit' ? 'depends_on' : e.via,
          actor: actorOf(e),
          file: displayPath(loc.file, cwd),
          line: loc.line,
          col: loc.col,
        };
      }),
    };
  });
  const shownIds = new Set(operations.map((o) => o.id));
  return `${JSON.stringify({ operations, cycles: cycles.filter((c) => shownIds.has(c[0])) }, null, 2)}\n`;
}

function actorOf(edge: Edge): string | undefined {
  const owner = edge.site?.owner;
  return owner?.kind === 'actor' ? owner.id : undefined;
}

/** A DOT double-quoted string. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export default graphCommand;
