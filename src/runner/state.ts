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
  /** a DELETE of this run answered 2xx for it */
  gone?: boolean;
  /** creation order across every resource, from 1 (the clean-up goes newest first) */
  seq: number;
}

interface InstanceOrigin {
  operation: string;
  actor?: string;
}

/** How an extraction came: which operation, as which actor, and whether that operation creates (graph/writes.ts). */
export interface RecordSource extends InstanceOrigin {
  creates: boolean;
}

export class RunState {
  private readonly instancesByResource = new Map<string, Instance[]>();
  /** the values of each instance, kept beside the list so that lookups allocate nothing */
  private readonly valueLists = new Map<string, Array<Record<string, unknown>>>();
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
    instance.origin = source?.actor ? { operation: source.operation, actor: source.actor } : { operation: source?.operation ?? op };
    if (source?.creates) instance.owned = true;
    this.instancesByResource.get(resource)!.push(instance);
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

  /** Every instance this run created and no DELETE of it removed, newest first. */
  ownedLeft(): Array<{ resource: string; index: number; instance: Instance }> {
    const out: Array<{ resource: string; index: number; instance: Instance }> = [];
    for (const [resource, list] of this.instancesByResource) {
      list.forEach((instance, i) => {
        if (instance.owned && !instance.gone) out.push({ resource, index: i + 1, instance });
      });
    }
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
