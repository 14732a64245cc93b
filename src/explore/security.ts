// Who the description lets call an operation: its `security` (the operation's own, else the
// description's), a list of alternatives, any one of which suffices, each naming the schemes it
// needs together and, for OAuth2 and OpenID Connect, the scopes. `security: []` makes an
// operation public; an empty alternative (`{}`) makes credentials optional. Schemes are read
// from components.securitySchemes (OpenAPI 3) and securityDefinitions (Swagger 2.0, which
// src/contract converts: both are read, for a document that was not). A description is
// anyone's text: lists are bounded.
import { describedOperation, pointerValue, record, type DescribedOperation, type Description } from '../openapi/index.js';
import type { Operation } from '../project/index.js';

interface SchemeUse {
  /** the scheme's name in the description */
  scheme: string;
  /** its type: `http`, `apiKey`, `oauth2`, `openIdConnect`, `mutualTLS` (Swagger 2.0: `basic` reads as `http`); undefined when not defined */
  type?: string;
  /** the scopes it requires (OAuth2, OpenID Connect; in OpenAPI 3.1 roles of any scheme) */
  scopes: string[];
}

export interface OperationSecurity {
  /** `METHOD /template` as described; undefined when the description does not have the operation */
  described?: string;
  /** `security: []`: anyone may call it, with no credentials */
  public: boolean;
  /** one alternative is `{}`: credentials are optional */
  optional: boolean;
  /** the alternatives, any one of which suffices */
  alternatives: SchemeUse[][];
}

const MAX_ALTERNATIVES = 32;
const MAX_SCHEMES = 16;
const MAX_SCOPES = 64;

/** What the description says of calling `op`; nothing stated (no `security` at all) is neither public nor secured. */
export function operationSecurity(desc: Description, op: Operation): OperationSecurity {
  const found = describedOperation(desc, op);
  return found ? securityAt(desc, found) : { public: false, optional: false, alternatives: [] };
}

function securityAt(desc: Description, found: DescribedOperation): OperationSecurity {
  const own = record(pointerValue(desc.doc, found.pointer)).security;
  const list = Array.isArray(own) ? own : desc.doc.security;
  const out: OperationSecurity = { described: `${found.method} ${found.template}`, public: false, optional: false, alternatives: [] };
  if (!Array.isArray(list)) return out;
  if (list.length === 0) return { ...out, public: true };
  const schemes = { ...record(desc.doc.securityDefinitions), ...record(record(desc.doc.components).securitySchemes) };
  for (const alt of list.slice(0, MAX_ALTERNATIVES)) {
    const entries = Object.entries(record(alt)).slice(0, MAX_SCHEMES);
    if (!entries.length) {
      out.optional = true;
      continue;
    }
    out.alternatives.push(
      entries.map(([scheme, scopes]) => {
        const type = record(schemes[scheme]).type;
        return {
          scheme,
          type: type === 'basic' ? 'http' : typeof type === 'string' ? type : undefined,
          scopes: Array.isArray(scopes) ? scopes.slice(0, MAX_SCOPES).filter((x): x is string => typeof x === 'string') : [],
        };
      }),
    );
  }
  return out;
}

/** The description demands credentials: never public, never optional, at least one alternative. */
export function isSecured(s: OperationSecurity): boolean {
  return !s.public && !s.optional && s.alternatives.length > 0;
}

/** How many of the description's secured operations need each scheme (`adminKey`) and each scope (`oauth admin`). */
export interface SecurityCounts {
  secured: number;
  needing: Map<string, number>;
}

export function securityCounts(desc: Description): SecurityCounts {
  const counts: SecurityCounts = { secured: 0, needing: new Map() };
  for (const list of desc.operations.values()) {
    for (const found of list) {
      const s = securityAt(desc, found);
      if (!isSecured(s)) continue;
      counts.secured++;
      const keys = new Set(s.alternatives.flatMap((alt) => alt.flatMap((use) => [use.scheme, ...use.scopes.map((scope) => `${use.scheme} ${scope}`)])));
      for (const k of keys) counts.needing.set(k, (counts.needing.get(k) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * What makes an operation a role's: in each alternative of its security, a scheme, or a scope
 * of a scheme, that no operation the project runs as another actor needs (`others`) and that
 * fewer than half of the description's secured operations need (a privilege is the exception:
 * the scope every ordinary operation needs is not one, even when only one actor runs them).
 * Undefined when some alternative needs nothing of the kind: then any actor may pass it.
 */
export function roleRequirement(s: OperationSecurity, others: OperationSecurity[], counts: SecurityCounts): string | undefined {
  if (!isSecured(s)) return undefined;
  const held = new Set(
    others.flatMap((o) => o.alternatives.flatMap((alt) => alt.flatMap((use) => [use.scheme, ...use.scopes.map((scope) => `${use.scheme} ${scope}`)]))),
  );
  const privilege = (key: string) => !held.has(key) && (counts.needing.get(key) ?? 0) * 2 < counts.secured;
  const needs: string[] = [];
  for (const alt of s.alternatives) {
    const own = alt.find((use) => privilege(use.scheme));
    if (own) {
      needs.push(`${own.scheme}${own.type ? ` (${own.type})` : ''}`);
      continue;
    }
    const scoped = alt.flatMap((use) => use.scopes.filter((scope) => privilege(`${use.scheme} ${scope}`)).map((scope) => `${use.scheme} scope ${scope}`));
    if (!scoped.length) return undefined;
    needs.push(scoped.join(' and '));
  }
  return needs.join(' or ');
}
