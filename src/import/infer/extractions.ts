// Extractions: a response field that feeds a later placeholder is extracted by the operation
// that returns it, under the resource (docs/format.md#extractions-per-resource), and referenced as {{resource.var}}.
import type { Endpoint } from './endpoints.js';
import { ident } from './names.js';

interface Extraction {
  path: string;
  /** the field's own name, its last key: `appName` of `$.data.applications[*].appName` */
  field?: string;
  producer: Endpoint;
  why: string;
}

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `$.data.user.token`, `$.data[*].id` (one instance per item), `$.data.uuids[0]`. */
export function jsonPath(field: ReadonlyArray<string | number>, listPath?: readonly string[]): string {
  const key = (k: string | number): string => (typeof k === 'number' ? `[${k}]` : SIMPLE_KEY.test(k) ? `.${k}` : `['${k.replace(/'/g, "\\'")}']`);
  const list = listPath ? `${listPath.map(key).join('')}[*]` : '';
  return `$.data${list}${field.map(key).join('')}`;
}

export class Extractions {
  private readonly byResource = new Map<string, Map<string, Extraction>>();

  /** The reference to `field` of `producer`'s response, registering the extraction once. */
  ref(producer: Endpoint, field: ReadonlyArray<string | number>, why: string, listPath?: readonly string[]): string {
    const path = jsonPath(field, listPath);
    const vars = this.byResource.get(producer.resource) ?? new Map<string, Extraction>();
    this.byResource.set(producer.resource, vars);
    for (const [name, x] of vars) if (x.path === path && x.producer === producer) return `{{${producer.resource}.${name}}}`;
    const keys = field.filter((f): f is string => typeof f === 'string');
    const candidates = [keys.at(-1), keys.slice(-2).join('_'), keys.join('_')].filter((c): c is string => Boolean(c)).map(ident);
    let name = candidates.find((c) => !vars.has(c));
    if (!name) {
      const base = candidates[0] ?? 'value';
      for (let i = 2; ; i++)
        if (!vars.has(`${base}_${i}`)) {
          name = `${base}_${i}`;
          break;
        }
    }
    vars.set(name, { path, field: keys.at(-1), producer, why });
    return `{{${producer.resource}.${name}}}`;
  }

  /** The endpoint whose answer a reference this class made (`{{pet.id}}`) reads. */
  producerOf(ref: string): Endpoint | undefined {
    const m = /^\{\{([^.{}]+)\.([^.{}]+)\}\}$/.exec(ref);
    const x = m ? this.byResource.get(m[1])?.get(m[2]) : undefined;
    return x && !x.path.includes('[*]') ? x.producer : undefined;
  }

  /** Each extraction of a field spelt `field` (its last key), as a reference, with who makes it. */
  named(field: string): Array<{ resource: string; ref: string; producer: Endpoint; why: string }> {
    const out: Array<{ resource: string; ref: string; producer: Endpoint; why: string }> = [];
    for (const [resource, vars] of this.byResource)
      for (const [name, x] of vars) if (x.field === field) out.push({ resource, ref: `{{${resource}.${name}}}`, producer: x.producer, why: x.why });
    return out;
  }

  /** The `extract` map of one endpoint, and the evidence for each entry. */
  of(endpoint: Endpoint): Array<{ name: string; path: string; why: string }> {
    const out: Array<{ name: string; path: string; why: string }> = [];
    for (const [name, x] of this.byResource.get(endpoint.resource) ?? []) if (x.producer === endpoint) out.push({ name, path: x.path, why: x.why });
    return out;
  }

  /** Every variable: for the plan's variable-flow table. */
  all(): Array<{ resource: string; name: string; producer: Endpoint }> {
    const out: Array<{ resource: string; name: string; producer: Endpoint }> = [];
    for (const [resource, vars] of this.byResource) for (const [name, x] of vars) out.push({ resource, name, producer: x.producer });
    return out;
  }
}
