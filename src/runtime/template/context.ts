// What a render needs from the runner. The runner owns the state (sessions, resource
// instances); the template code only asks it for a scoped value.
import type { TemplateValue } from '../../project/index.js';
import type { SecretStore } from '../secrets/index.js';

/** A `{{<scope>.<field>…}}` or `{{<scope>[n].<field>…}}` reference, as the runner is asked for it. */
export interface ScopedRef {
  scope: string;
  /** 1-based instance index, for `{{order[2].id}}` */
  index?: number;
  field: string;
  /** the rest of a dotted path into the field's value: `order.items.0.sku` -> ['0', 'sku'] */
  path: string[];
}

export type ScopedLookup = { found: true; value: unknown } | { found: false };

export interface RenderContext {
  /** the chosen environment's variables, as written (SecretRefs and templates allowed) */
  env: Record<string, TemplateValue>;
  /** the environment's id, for messages */
  envName?: string;
  /** the keys the run drew (`{{env.X}}` whose value is `bucket-{{$.uuid}}`), by variable: one per run */
  drawn?: Map<string, unknown>;
  /** `--var name=value`, the plugin's `vars`, FLOW_VAR_<name> (see `varsFromEnv`) */
  vars: Record<string, string>;
  secrets: SecretStore;
  /**
   * Actor session values, then the indexed resource instance, then the newest resource
   * instance that has the field (docs/format.md#references). `lookupInState` implements that order.
   */
  lookupScoped(ref: ScopedRef): ScopedLookup;
  /** the clock of `$.now` (tests fix it) */
  now?: () => Date;
  /** a seed makes `$.faker.*` and `$.uuid` reproducible; one sequence per `faker` object */
  faker?: { seed: number };
}
