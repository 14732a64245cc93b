// A project's graph as a Mermaid `flowchart`, which GitHub, GitLab and most Markdown viewers
// draw natively. Arrows run the way a run does: from a prerequisite to the operation that needs
// it. One subgraph per resource; implicit edges solid, labelled with the field they carry;
// depends_on edges dashed; each actor drawn once, pointing at the operation where it logs in
// (its first in schedule order). Given outcomes, nodes are coloured by them (the run report).
import { refSource, scheduleOrder, type Edge, type ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import type { OperationStatus } from '../runner/index.js';

export interface MermaidOptions {
  /** operation numbers to show (default: all) */
  shown?: readonly number[];
  /** each shown operation's outcome, for a run: nodes get the class of their status */
  outcomes?: ReadonlyMap<string, OperationStatus>;
}

/** Fill colours readable in light and dark themes, with the outcome in the text too (✔ ✖ ↷). */
const OUTCOME_STYLE: Record<OperationStatus, { classDef: string; mark: string }> = {
  passed: { classDef: 'fill:#d3f3da,stroke:#1a7f37,color:#0b3d17', mark: '✔' },
  failed: { classDef: 'fill:#ffd8d3,stroke:#cf222e,color:#5c0b0b', mark: '✖' },
  skipped: { classDef: 'fill:#eaeef2,stroke:#6e7781,color:#32383f,stroke-dasharray:4 3', mark: '↷' },
};

const LOGIN_STRATEGIES = new Set(['simple', 'chain', 'oauth2_client_credentials', 'oauth2_password']);

export function mermaidGraph(project: Project, graph: ProjectGraph, options: MermaidOptions = {}): string {
  const shown = options.shown ?? graph.opIds.map((_, i) => i);
  const outcomes = options.outcomes;
  const ids = shown.map((i) => graph.opIds[i]);
  const lines = ['flowchart LR', `  %% ${label(project.name)}: an arrow runs from a prerequisite to the operation that needs it (dashed: depends_on)`];

  // Resources in declaration order, each with its shown operations in declaration order.
  const byResource = new Map<string, string[]>();
  for (const id of ids) {
    const resource = project.operations.get(id)!.resource;
    byResource.set(resource, [...(byResource.get(resource) ?? []), id]);
  }
  for (const [resource, ops] of byResource) {
    lines.push(`  subgraph ${nodeId('res', resource)}["${label(resource)}"]`);
    for (const id of ops) lines.push(`    ${nodeId('op', id)}["${operationLabel(project, id, outcomes?.get(id))}"]`);
    lines.push('  end');
  }

  for (const [actor, first] of loginPlaces(project, graph, ids)) {
    const strategy = project.actors.get(actor)?.auth?.strategy;
    lines.push(`  ${nodeId('actor', actor)}(["${label(`actor ${actor}${strategy ? ` (${strategy})` : ''}`)}"])`);
    // Strategies that send a login request log in there; the others sign their first request.
    const verb = strategy && LOGIN_STRATEGIES.has(strategy) ? 'logs in' : 'first request';
    lines.push(`  ${nodeId('actor', actor)} -. ${verb} .-> ${nodeId('op', first)}`);
  }

  const shownSet = new Set(ids);
  for (const i of shown) {
    // One arrow per prerequisite: the fields it carries joined, explicit when only depends_on links them.
    const byTarget = new Map<string, Edge[]>();
    for (const e of graph.edges[i]) if (shownSet.has(e.to)) byTarget.set(e.to, [...(byTarget.get(e.to) ?? []), e]);
    for (const [to, edges] of byTarget) {
      const fields = edges.filter((e) => e.kind === 'implicit').map(carried);
      const from = nodeId('op', to);
      const target = nodeId('op', graph.opIds[i]);
      lines.push(fields.length ? `  ${from} -->|"${label([...new Set(fields)].join(', '))}"| ${target}` : `  ${from} -.-> ${target}`);
    }
  }

  if (outcomes) {
    for (const status of Object.keys(OUTCOME_STYLE) as OperationStatus[]) {
      const members = ids.filter((id) => outcomes.get(id) === status);
      if (!members.length) continue;
      lines.push(`  classDef ${status} ${OUTCOME_STYLE[status].classDef}`);
      lines.push(`  class ${members.map((id) => nodeId('op', id)).join(',')} ${status}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `name` on the first line, `METHOD path` on the second (and the outcome's mark, in a run report). */
function operationLabel(project: Project, id: string, outcome: OperationStatus | undefined): string {
  const op = project.operations.get(id)!;
  const mark = outcome ? `${OUTCOME_STYLE[outcome].mark} ` : '';
  return `${mark}${label(op.name)}<br/>${label(`${op.method} ${op.path || '(no path)'}`)}`;
}

/** For each actor of the shown operations, the first of them (schedule order) that acts as it. */
function loginPlaces(project: Project, graph: ProjectGraph, ids: string[]): Map<string, string> {
  const places = new Map<string, string>();
  const shown = new Set(ids);
  for (const id of scheduleOrder(graph, ids)) {
    const actor = project.operations.get(id)?.actor;
    if (actor && shown.has(id) && !places.has(actor)) places.set(actor, id);
  }
  return places;
}

/** The field an implicit edge carries: `product.id`, and whose login reads it when an actor's does. */
function carried(edge: Edge): string {
  const field = refSource(edge.via);
  const owner = edge.site?.owner;
  return owner && owner.kind !== 'operation' ? `${field} (${owner.kind} ${owner.id})` : field;
}

/**
 * A node id from any name: letters and digits kept, `.` as `__`, every other character as
 * `_<hex>_`. Injective (an `_` always starts an escape), so two names never share a node, and
 * the prefix keeps ids clear of Mermaid's keywords (`end`, `graph`, `subgraph`).
 */
function nodeId(prefix: string, name: string): string {
  let out = `${prefix}_`;
  for (const ch of name) {
    if (/[A-Za-z0-9]/.test(ch)) out += ch;
    else if (ch === '.') out += '__';
    else out += `_${ch.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/**
 * Text inside a quoted Mermaid label: `"` ends it and `#…;` is an entity, `<` `>` and `&` would
 * be read as HTML, a leading backtick as Markdown, `|` ends an edge label; all become entity
 * codes, which Mermaid decodes. A line break would end the statement: a space.
 */
function label(text: string): string {
  return text.replace(/[#"<>&`|\n\r]/g, (ch) => (ch === '\n' || ch === '\r' ? ' ' : `#${ch.codePointAt(0)};`));
}
