// W_NAME_SHARED: a name that is both an actor and a resource. `{{x.f}}` then reads the
// actor's session first and the resource only when the session lacks `f` (docs/format.md#references): legal,
// but easy to misread, and the session can shadow a resource field of the same name.
import { loginFields } from '../../graph/index.js';
import type { Finding, LintContext, Rule } from '../rule.js';

const sharedNamesRule: Rule = {
  id: 'shared-names',
  codes: ['W_NAME_SHARED'],
  *check({ project }: LintContext): Iterable<Finding> {
    for (const actor of project.actors.values()) {
      if (!project.resources.has(actor.id)) continue;
      const id = actor.id;
      const fields = [...loginFields(actor)];
      const provides = fields.length
        ? `its login provides ${fields.join(', ')}; any other field is the resource's`
        : "its login provides no field, so every field is the resource's";
      yield {
        code: 'W_NAME_SHARED',
        message: `${id} is both an actor and a resource: {{${id}.<field>}} reads the actor's session first (docs/format.md#references); ${provides}`,
        file: actor.file,
        // The actor's key in flow.yaml, or its `name:` in its own file (line 1 without one).
        yamlPath: actor.yamlPath.length ? actor.yamlPath : ['name'],
        atKey: true,
      };
    }
  },
};

export default sharedNamesRule;
