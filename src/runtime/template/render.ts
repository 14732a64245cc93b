// Rendering of template values: strings anywhere in maps and arrays, `!secret` values.
// One `render` for values and one `renderString` for text, both synchronous.
// A string that is exactly one reference keeps the value's type (`"{{order.id}}"` with
// id 42 is the number 42 in a JSON body); text around a reference makes a string.
import { FlowError } from '../../errors.js';
import { type Expr, hasTemplate, parseCached, type TemplatePart } from '../../graph/index.js';
import { isLiteral, isSecretRef, type TemplateValue } from '../../project/index.js';
import * as builtins from './builtins/index.js';
import type { RenderContext } from './context.js';
import { env } from './env.js';
import type { Engine, Frame, Resolver } from './frame.js';
import { scoped } from './scoped.js';
import { secret, secretValue } from './secret.js';

type ResolverTable = { [K in Expr['kind']]: Resolver<Extract<Expr, { kind: K }>> };

/** One resolver per kind of reference. `$.`, `env.` and `secret.` are told apart by the parser. */
const RESOLVERS: ResolverTable = {
  uuid: builtins.uuid,
  now: builtins.now,
  faker: builtins.faker,
  codec: builtins.codec,
  literal: (expr) => expr.text,
  env,
  secret,
  scoped,
};

function resolve(part: Extract<TemplatePart, { kind: 'ref' }>, frame: Frame): unknown {
  const resolver = RESOLVERS[part.expr.kind] as Resolver<Expr>;
  return resolver(part.expr, frame, part.raw);
}

function renderValue(value: TemplateValue, frame: Frame): unknown {
  if (typeof value === 'string') {
    if (!hasTemplate(value)) return value;
    const parts = parseCached(value);
    return parts.length === 1 && parts[0].kind === 'ref' ? resolve(parts[0], frame) : renderParts(parts, frame);
  }
  if (value === null || typeof value !== 'object') return value;
  if (isSecretRef(value)) return secretValue(value.name, frame);
  if (isLiteral(value)) return value.value;
  if (Array.isArray(value)) return value.map((item) => renderValue(item, frame));
  // Keys are not templates: only values are rendered.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = renderValue(value[key], frame);
  return out;
}

function renderParts(parts: TemplatePart[], frame: Frame): string {
  // A malformed reference fails the whole string before anything is resolved.
  for (const part of parts) if (part.kind === 'error') throw syntaxError(part);
  let out = '';
  for (const part of parts) {
    if (part.kind === 'text') out += part.text;
    else if (part.kind === 'ref') out += toText(resolve(part, frame));
  }
  return out;
}

function syntaxError(part: Extract<TemplatePart, { kind: 'error' }>): FlowError {
  return new FlowError('E_TEMPLATE_SYNTAX', `${part.raw}: ${part.message}`, { details: { reference: part.raw, offset: part.offset } });
}

/** How a value reads inside text: strings as they are, objects and arrays as JSON. */
function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const ENGINE: Engine = { value: renderValue, text: renderParts };

/**
 * Render a value as written in YAML into the value to send. Maps and arrays are copied;
 * strings without `{{` are returned as they are. Synchronous: what it reads is in memory
 * (secrets and faker are loaded before a run). Throws FlowErrors with codes
 * `E_VAR_UNRESOLVED`, `E_SECRET_MISSING`, `E_TEMPLATE_SYNTAX`, `E_TEMPLATE_CYCLE`.
 */
export function render(value: TemplateValue, ctx: RenderContext): unknown {
  // Most header values are literal text: no frame to build.
  if (typeof value === 'string' && !hasTemplate(value)) return value;
  return renderValue(value, { ctx, engine: ENGINE, envStack: [], tainted: false });
}

/** Render a string to a string (URLs, paths, header values): every reference becomes text. */
export function renderString(text: string, ctx: RenderContext): string {
  if (!hasTemplate(text)) return text;
  return renderParts(parseCached(text), { ctx, engine: ENGINE, envStack: [], tainted: false });
}
