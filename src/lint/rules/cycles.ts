// E_CYCLE (docs/format.md#cycles): each cycle once, at the first operation's edge, with the path printed.
import { findCycles, type Edge } from '../../graph/index.js';
import type { Finding, LintContext, Rule } from '../rule.js';

const cyclesRule: Rule = {
  id: 'cycles',
  codes: ['E_CYCLE'],
  *check({ graph }: LintContext): Iterable<Finding> {
    for (const cycle of findCycles(graph)) {
      const steps = cycle.slice(0, -1).map((from, i) => graph.edgeBetween(from, cycle[i + 1])!);
      const why = steps.map(describe).join(', ');
      const message = `circular dependency ${cycle.join(' -> ')}: ${why}; remove the unneeded edge`;
      yield { code: 'E_CYCLE', severity: 'error', message, file: steps[0].file, yamlPath: steps[0].yamlPath };
    }
  },
};

function describe(edge: Edge): string {
  if (edge.kind === 'explicit') return `${edge.from} depends_on ${edge.to}`;
  const through = edge.site && edge.site.owner.kind !== 'operation' ? ` (through ${edge.site.owner.kind} ${edge.site.owner.id})` : '';
  return `${edge.from} reads ${edge.via}${through}, extracted by ${edge.to}`;
}

export default cyclesRule;
