// The runner's state (docs/format.md#run-state): per resource a list of instances, newest last; per
// actor a session. Read by templates through `lookupInState`, written by extractions.

export interface Instance {
  values: Record<string, unknown>;
  /** operations that wrote into this instance */
  writers: Set<string>;
  /** the operation whose answer started it, and the actor it ran as */
  origin?: InstanceOrigin;
  /** this run's create made it (docs/format.md#ownership): only such an instance is written to, and cleaned up */
  owned?: boolean;
  /**
   * The DELETEs of this run that answered 2xx, 404 or 410 for it, in order (the clean-up sends
   * the removals that come after the last one: an archive's delete after the archiving one)
   */
  removedBy?: string[];
  /** when a removal of it last answered 202 Accepted (Date.now()): the server may still be at it (accepted.ts) */
  acceptedAt?: number;
  /**
   * made by a write whose answer the run does not record (a create that answered another status
   * than expected, a clone): not in the lists templates read, there for the clean-up alone
   */
  aside?: boolean;
  /** made at a key the run drew (keyed.ts): removed with the DELETE at the very path it was made at */
  keyed?: boolean;
  /** creation order across every resource, from 1 (the clean-up goes newest first) */
  seq: number;
  /**
   * what names it for its removals alone (made.ts): a field a removal's path reads that the
   * create did not extract, from its own answer or the body it sent, and the removals (`by`)
   * it names it for; templates never read it
   */
  names?: { values: Record<string, unknown>; by: string[] };
  /**
   * the one credential its create's answer issued (an API token's `secret`), for a removal whose
   * last segment is a credential-named variable nobody gave (`/api-tokens/{{env.token}}`): a value
   * that names only what this run made (origin-removal.ts); templates never read it
   */
  issued?: string;
  /**
   * what a create that answered no id sent, by which a read of the resource finds the item it made
   * (claim.ts): the body's top-level scalar fields, and those of them made run-unique
   */
  sent?: { values: Record<string, string | number>; unique: string[] };
}

interface InstanceOrigin {
  operation: string;
  actor?: string;
  /** the URL path its create's request went to (a removal with no reference to it is found from it: origin-removal.ts) */
  path?: string;
  /** when its create's answer says it was made (born.ts): another instance with its id is not it */
  born?: string;
}

/** How an extraction came: which operation, as which actor, and whether that operation creates (graph/writes.ts). */
export interface RecordSource extends InstanceOrigin {
  creates: boolean;
  /** a create whose answer says it was made long before the request: it handed back what was there (born.ts), which is not the run's */
  handedBack?: boolean;
}

export class RunState {
  private readonly instancesByResource = new Map<string, Instance[]>();
  /** the values of each instance, kept beside the list so that lookups allocate nothing */
  private readonly valueLists = new Map<string, Array<Record<string, unknown>>>();
  /** what `keepAside` holds, per resource */
  private readonly asideByResource = new Map<string, Instance[]>();
  private seq = 0;

  /**
   * `sessionValues`: the actors' session values, shared by the forks of one runner (each actor
   * logs in once per run); instances are each runner's own.
   */
  constructor(
    resourceIds: Iterable<string>,
    readonly sessionValues = new Map<string, Record<string, unknown>>(),
  ) {
    for (const id of resourceIds) {
      this.instancesByResource.set(id, []);
      this.valueLists.set(id, []);
    }
  }

  values(resource: string): ReadonlyArray<Record<string, unknown>> | undefined {
    return this.valueLists.get(resource);
  }

  private push(resource: string, values: Record<string, unknown>, op: string, source?: RecordSource): void {
    const instance: Instance = { values, writers: new Set([op]), seq: ++this.seq };
    // without a source (a test, a caller that is not an operation): it came from `op`
    instance.origin = {
      operation: source?.operation ?? op,
      ...(source?.actor ? { actor: source.actor } : {}),
      ...(source?.creates && source.path ? { path: source.path } : {}),
      ...(source?.creates && source.born !== undefined ? { born: source.born } : {}),
    };
    if (source?.creates && !source.handedBack) instance.owned = true;
    this.instancesByResource.get(resource)!.push(instance);
    this.valueLists.get(resource)!.push(instance.values);
  }

  /** How many instances this state started so far (a caller sees whether a step recorded one). */
  get started(): number {
    return this.seq;
  }

  /** An instance the run made and does not record (Instance.aside): owned, read by the clean-up alone. */
  keepAside(resource: string, values: Record<string, unknown>, origin: InstanceOrigin): Instance | undefined {
    if (!this.instancesByResource.has(resource)) return undefined;
    const instance: Instance = { values, writers: new Set([origin.operation]), seq: ++this.seq, origin, owned: true, aside: true };
    let list = this.asideByResource.get(resource);
    if (!list) this.asideByResource.set(resource, (list = []));
    list.push(instance);
    return instance;
  }

  /** What `keepAside` holds for a resource, oldest first. */
  aside(resource: string): readonly Instance[] {
    return this.asideByResource.get(resource) ?? [];
  }

  /**
   * A kept-aside instance that a read found (claim.ts): it joins the list templates read, as the
   * newest, with the values the read extracted; still the run's own.
   */
  claim(resource: string, instance: Instance, values: Record<string, unknown>, op: string): void {
    const aside = this.asideByResource.get(resource);
    const list = this.instancesByResource.get(resource);
    const at = aside?.indexOf(instance) ?? -1;
    if (!aside || !list || at < 0) return;
    aside.splice(at, 1);
    Object.assign(instance.values, values);
    instance.writers.add(op);
    delete instance.aside;
    list.push(instance);
    this.valueLists.get(resource)!.push(instance.values);
  }

  instances(resource: string): Instance[] | undefined {
    return this.instancesByResource.get(resource);
  }

  newest(resource: string, index?: number): Instance | undefined {
    const list = this.instancesByResource.get(resource);
    if (!list?.length) return undefined;
    return index === undefined ? list[list.length - 1] : list[index - 1];
  }

  /**
   * Store what operation `op` extracted. A scalar extraction merges into the newest instance
   * unless `op` already wrote it, in which case it starts a new one (so create twice gives
   * two orders, and get after create fills in the same order). Each `[*]` match appends an
   * instance. `target` pins the instance (inside for_each). A create (`source.creates`, a POST
   * that extracts, docs/format.md#ownership) always starts its own.
   */
  record(resource: string, op: string, scalars: Record<string, unknown>, many: Record<string, unknown[]> = {}, target?: Instance, source?: RecordSource): void {
    const list = this.instancesByResource.get(resource);
    if (!list) return;
    const fanOut = hasKeys(many) ? Object.entries(many) : NO_FAN_OUT;
    if (fanOut.length) {
      const count = Math.max(...fanOut.map(([, v]) => v.length));
      for (let i = 0; i < count; i++) {
        const values: Record<string, unknown> = { ...scalars };
        for (const [name, matches] of fanOut) if (i < matches.length) values[name] = matches[i];
        // a fan-out reads what the server lists: none of it is the run's own
        this.push(resource, values, op, source && { ...source, creates: false });
      }
      return;
    }
    if (!hasKeys(scalars)) return;
    // a create's answer is a new thing: it never merges into another instance (a listed one, another create's)
    const into = source?.creates && !target ? undefined : (target ?? this.into(resource, op));
    if (into) {
      Object.assign(into.values, scalars);
      into.writers.add(op);
    } else {
      this.push(resource, { ...scalars }, op, source);
    }
  }

  /** The instance a scalar extraction by `op` merges into: the newest, unless `op` wrote it (then none: a new one starts). */
  into(resource: string, op: string): Instance | undefined {
    const newest = this.newest(resource);
    return newest && !newest.writers.has(op) ? newest : undefined;
  }

  /** Every instance this run created (those kept aside too, without an index), newest first. */
  owned(): Array<{ resource: string; index?: number; instance: Instance }> {
    const out: Array<{ resource: string; index?: number; instance: Instance }> = [];
    for (const [resource, list] of this.instancesByResource) {
      list.forEach((instance, i) => {
        if (instance.owned) out.push({ resource, index: i + 1, instance });
      });
    }
    for (const [resource, list] of this.asideByResource) for (const instance of list) out.push({ resource, instance });
    return out.sort((a, b) => b.instance.seq - a.instance.seq);
  }

  session(actor: string): Record<string, unknown> | undefined {
    return this.sessionValues.get(actor);
  }

  setSession(actor: string, values: Record<string, unknown> | undefined): void {
    if (values) this.sessionValues.set(actor, values);
    else this.sessionValues.delete(actor);
  }
}

const NO_FAN_OUT: Array<[string, unknown[]]> = [];

/** Without building the list of keys (extractions are recorded for every operation). */
function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}
