// Every `{{ }}` reference of a project, with where it is and what its scope is. Each distinct
// string is parsed once (parsed.ts, shared with the runtime's renders).
import type { Actor, AuthConfig, Environment, Operation, Project, RequestSpec, YamlPath } from '../project/index.js';
import { classify, type RefClass, type ScopeNames } from './scopes.js';
import { loginFields } from './session.js';
import { parseCached } from './parsed.js';
import { hasTemplate, holdsReference, type Expr, type TemplatePart } from './template.js';
import { visitStrings } from './walk.js';

export type OwnerKind = 'operation' | 'actor' | 'environment';

interface RefOwner {
  kind: OwnerKind;
  /** operation id (`order.create`), actor id or environment id */
  id: string;
}

/**
 * The part of its owner a reference sits in. For actors it decides which operations the
 * reference serves: `auth` and `session` run at login, `inject` on each request of the actor.
 */
type RefSection = 'path' | 'headers' | 'query_params' | 'body' | 'body_form' | 'assert' | 'poll_until' | 'auth' | 'session' | 'inject' | 'variables';

export interface RefSite {
  file: string;
  /** the path of the string holding the reference */
  yamlPath: YamlPath;
  owner: RefOwner;
  section: RefSection;
  /** the reference as written, `{{order.id}}` */
  raw: string;
  /** undefined for a syntax error */
  expr?: Expr;
  class: RefClass;
  /** for a syntax error: what is wrong */
  message?: string;
  /** true inside a codec argument, e.g. `{{env.user}}` in `{{$.base64.encode('{{env.user}}:x')}}` */
  nested: boolean;
}

export interface Sites {
  all: RefSite[];
  byOperation: Map<string, RefSite[]>;
  byActor: Map<string, RefSite[]>;
  byEnvironment: Map<string, RefSite[]>;
}

export function collectSites(project: Project): Sites {
  const c = new Collector(project);
  const sites: Sites = { all: c.all, byOperation: new Map(), byActor: new Map(), byEnvironment: new Map() };
  for (const env of project.environments.values()) sites.byEnvironment.set(env.id, c.environment(env));
  for (const actor of project.actors.values()) sites.byActor.set(actor.id, c.actor(actor));
  for (const op of project.operations.values()) sites.byOperation.set(op.id, c.operation(op));
  return sites;
}

/** Where the strings of one owner go; `into` is the owner's list. */
interface Target {
  owner: RefOwner;
  file: string;
  into: RefSite[];
}

/** Path segments, shared (never mutated) so that walking allocates nothing for plain strings. */
const K = {
  variables: ['variables'],
  injectHeaders: ['inject', 'headers'],
  path: ['path'],
  queryParams: ['query_params'],
  headers: ['headers'],
  body: ['body'],
  bodyForm: ['body_form'],
  assert: ['assert'],
  pollUntil: ['poll_until'],
  pollCondition: ['poll_until', 'condition'],
} as const;

class Collector {
  readonly all: RefSite[] = [];
  private readonly names: ScopeNames;

  constructor(project: Project) {
    const fields = new Map<string, ReadonlySet<string>>();
    this.names = {
      actors: project.actors,
      resources: project.resources,
      sessionFields: (actor) => {
        let f = fields.get(actor);
        if (!f) fields.set(actor, (f = loginFields(project.actors.get(actor))));
        return f;
      },
    };
  }

  environment(env: Environment): RefSite[] {
    const t = this.target('environment', env.id, env.file);
    this.value(t, 'variables', env.variables, env.yamlPath, K.variables);
    return t.into;
  }

  actor(actor: Actor): RefSite[] {
    const t = this.target('actor', actor.id, actor.file);
    if (actor.auth) this.auth(t, 'auth', actor.auth);
    if (actor.session?.refresh) this.request(t, 'session', actor.session.refresh);
    this.value(t, 'inject', actor.inject.headers, actor.yamlPath, K.injectHeaders);
    return t.into;
  }

  operation(op: Operation): RefSite[] {
    const t = this.target('operation', op.id, op.file);
    const at = op.yamlPath;
    this.value(t, 'path', op.path, at, K.path);
    this.value(t, 'query_params', op.queryParams, at, K.queryParams);
    this.value(t, 'headers', op.headers, at, K.headers);
    this.value(t, 'body', op.body, at, K.body);
    this.value(t, 'body_form', op.bodyForm, at, K.bodyForm);
    // From the map as written so that paths keep their indexes (the model drops non-strings).
    const asserts = Array.isArray(op.raw.assert) ? op.raw.assert : op.assert;
    this.value(t, 'assert', asserts, at, K.assert);
    if (op.pollUntil) {
      const written = op.raw.poll_until;
      if (written !== undefined) this.value(t, 'poll_until', written, at, K.pollUntil);
      else this.value(t, 'poll_until', op.pollUntil.condition, at, K.pollCondition);
    }
    if (op.auth) this.auth(t, 'auth', op.auth);
    return t.into;
  }

  /** Every key of an auth map but `extract` (paths into the response, not templates). */
  private auth(t: Target, section: RefSection, auth: AuthConfig): void {
    for (const [key, value] of Object.entries(auth.options)) {
      if (key === 'extract') continue;
      if (key === 'steps' && Array.isArray(value)) {
        value.forEach((step, i) => {
          if (typeof step !== 'object' || step === null || Array.isArray(step)) return;
          for (const [k, v] of Object.entries(step)) if (k !== 'extract') this.value(t, section, v, auth.yamlPath, ['steps', i, k]);
        });
        continue;
      }
      this.value(t, section, value, auth.yamlPath, [key]);
    }
  }

  private request(t: Target, section: RefSection, req: RequestSpec): void {
    const at = req.yamlPath;
    this.value(t, section, req.path, at, K.path);
    this.value(t, section, req.queryParams, at, K.queryParams);
    this.value(t, section, req.headers, at, K.headers);
    this.value(t, section, req.body, at, K.body);
    this.value(t, section, req.bodyForm, at, K.bodyForm);
  }

  private target(kind: OwnerKind, id: string, file: string): Target {
    return { owner: { kind, id }, file, into: [] };
  }

  /** The strings of `value`, at `base` + `keys`; paths are built only for strings holding `{{`. */
  private value(t: Target, section: RefSection, value: unknown, base: YamlPath, keys: YamlPath): void {
    if (!holdsReference(value)) return;
    visitStrings(value, [...base, ...keys], (text, at) => this.string(t, section, text, at), hasTemplate);
  }

  private string(t: Target, section: RefSection, text: string, yamlPath: YamlPath): void {
    this.parts(t, section, parseCached(text), yamlPath, false);
  }

  private parts(t: Target, section: RefSection, parts: TemplatePart[], yamlPath: YamlPath, nested: boolean): void {
    for (const p of parts) {
      if (p.kind === 'text') continue;
      const { file, owner } = t;
      if (p.kind === 'error') {
        this.add(t, { file, yamlPath, owner, section, raw: p.raw, expr: undefined, class: 'syntax-error', message: p.message, nested });
        continue;
      }
      const cls = classify(p.expr, this.names);
      this.add(t, { file, yamlPath, owner, section, raw: p.raw, expr: p.expr, class: cls, message: undefined, nested });
      if (p.expr.kind === 'codec') this.parts(t, section, p.expr.arg, yamlPath, true);
    }
  }

  private add(t: Target, site: RefSite): void {
    t.into.push(site);
    this.all.push(site);
  }
}
