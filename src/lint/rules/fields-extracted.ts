// W_FIELD_NOT_EXTRACTED (docs/format.md#field-not-checked): `{{resource.field}}` where the resource exists but no
// operation extracts that field, or only the operation reading it does (so nothing runs first).
import { didYouMean, operationFormOf, type RefSite } from '../../graph/index.js';
import type { Finding, LintContext, Rule } from '../rule.js';

const fieldsExtractedRule: Rule = {
  id: 'fields-extracted',
  codes: ['W_FIELD_NOT_EXTRACTED'],
  *check({ project, graph }: LintContext): Iterable<Finding> {
    for (const site of graph.refs) {
      const expr = site.expr;
      if (site.class !== 'resource' || expr?.kind !== 'scoped') continue;
      if (graph.producers(expr.scope, expr.field).length) continue;
      if (operationFormOf(expr, project)) continue; // E_REF_UNDEFINED says it better
      const fields = graph.fieldsOf(expr.scope);
      const known = fields.length ? didYouMean(expr.field, fields) : ' (it extracts nothing)';
      yield warn(site, `${site.raw}: no operation of ${expr.scope} extracts "${expr.field}"${known}`);
    }
    const reported = new Set<string>();
    for (const { opId, site } of graph.selfProduced) {
      const key = `${opId}\0${site.file}\0${site.yamlPath.join('\0')}\0${site.raw}`;
      if (reported.has(key)) continue;
      reported.add(key);
      const through = site.owner.kind === 'operation' ? '' : ` (through ${site.owner.kind} ${site.owner.id})`;
      yield warn(site, `${site.raw}: only ${opId} extracts it, and ${opId} reads it${through}: nothing provides it before ${opId} runs`);
    }
  },
};

function warn(site: RefSite, message: string): Finding {
  return { code: 'W_FIELD_NOT_EXTRACTED', severity: 'warning', message, file: site.file, yamlPath: site.yamlPath };
}

export default fieldsExtractedRule;
