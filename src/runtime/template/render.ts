// Rendering of template values: strings anywhere in maps and arrays, `!secret` values.
// A string that is exactly one reference keeps the value's type (`"{{order.id}}"` with
// id 42 is the number 42 in a JSON body); text around a reference makes a string.
import { FlowError } from '../../errors.js';
import { hasTemplate, type Expr, type TemplatePart } from '../../graph/template.js';
import { isSecretRef, type TemplateValue } from '../../project/types.js';
import * as builtins from './builtins/index.js';
import { parseCached } from '../../graph/parsed.js';
import { inOrder, isPromise, whenReady, type MaybePromise } from '../maybe.js';
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
  env,
  secret,
  scoped,
};

function resolve(part: Extract<TemplatePart, { kind: 'ref' }>, frame: Frame): unknown {
  const resolver = RESOLVERS[part.expr.kind] as Resolver<Expr>;
  return resolver(part.expr, frame, part.raw);
}

// Rendering goes on synchronously while every value is ready (src/runtime/maybe.ts) and in
// the written order either way: an item is rendered once the one before it is.
function renderValue(value: TemplateValue, frame: Frame): MaybePromise<unknown> {
  if (typeof value === 'string') return hasTemplate(value) ? renderTemplateString(value, frame) : value;
  if (value === null || typeof value !== 'object') return value;
  if (isSecretRef(value)) return secretValue(value.name, frame);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    return whenReady(
      inOrder(value.length, (i) => whenReady(renderValue(value[i], frame), (v) => void (out[i] = v))),
      () => out,
    );
  }
  // Keys are not templates: only values are rendered.
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  return whenReady(
    inOrder(keys.length, (i) => whenReady(renderValue(value[keys[i]], frame), (v) => void (out[keys[i]] = v))),
    () => out,
  );
}

function renderTemplateString(text: string, frame: Frame): MaybePromise<unknown> {
  return renderParsed(parseCached(text), frame);
}

function renderParsed(parts: TemplatePart[], frame: Frame): MaybePromise<unknown> {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.kind === 'ref') return resolve(only, frame);
  return renderParts(parts, frame);
}

function renderParts(parts: TemplatePart[], frame: Frame): MaybePromise<string> {
  // A malformed reference fails the whole string before anything (a secret) is fetched.
  for (const part of parts) if (part.kind === 'error') throw syntaxError(part);
  return appendParts(parts, 0, '', frame);
}

/** `out` followed by the text of `parts[from..]`: a plain loop while each reference is ready. */
function appendParts(parts: TemplatePart[], from: number, out: string, frame: Frame): MaybePromise<string> {
  for (let i = from; i < parts.length; i++) {
    const part = parts[i];
    if (part.kind === 'text') out += part.text;
    else if (part.kind === 'ref') {
      const value = resolve(part, frame);
      if (isPromise(value)) return value.then((v) => appendParts(parts, i + 1, out + toText(v), frame));
      out += toText(value);
    }
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

function rootFrame(ctx: RenderContext): Frame {
  return { ctx, engine: ENGINE, envStack: [], tainted: false };
}

/**
 * Render a value as written in YAML into the value to send. Maps and arrays are copied;
 * strings without `{{` are returned as they are. Errors are FlowErrors with codes
 * `E_VAR_UNRESOLVED`, `E_SECRET_MISSING`, `E_TEMPLATE_SYNTAX`, `E_TEMPLATE_CYCLE`.
 */
export async function render(value: TemplateValue, ctx: RenderContext): Promise<unknown> {
  return renderValue(value, rootFrame(ctx));
}

/** Render a string to a string (URLs, paths, header values): every reference becomes text. */
export async function renderString(text: string, ctx: RenderContext): Promise<string> {
  return renderStringNow(text, ctx);
}

/**
 * `render` for the runner's hot paths: the value itself when every reference is ready, a
 * promise when one is not (a secret, a faker's first use). Errors are thrown, not rejected.
 */
export function renderNow(value: TemplateValue, ctx: RenderContext): MaybePromise<unknown> {
  // Most header values are literal text: no frame to build.
  if (typeof value === 'string' && !hasTemplate(value)) return value;
  return renderValue(value, rootFrame(ctx));
}

/** `renderNow` of a template parsed beforehand (an assert's expected value). */
export function renderParsedNow(parts: TemplatePart[], ctx: RenderContext): MaybePromise<unknown> {
  return renderParsed(parts, rootFrame(ctx));
}

/** `renderString`, as `renderNow` is to `render`. */
export function renderStringNow(text: string, ctx: RenderContext): MaybePromise<string> {
  if (!hasTemplate(text)) return text;
  return renderParts(parseCached(text), rootFrame(ctx));
}
