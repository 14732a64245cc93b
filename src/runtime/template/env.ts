// `{{env.X}}`: a value given on the command line wins (`--var X=…`, FLOW_VAR_X), then the
// environment file. `<SET_VIA_--var>` without a given value is an error naming every way
// to give it (flag, environment variable, Vitest plugin option). A value may hold references
// itself (`token: "{{secret.TOKEN}}"`): it is rendered in turn, and a loop between variables
// is E_TEMPLATE_CYCLE. A key the run draws (`bucket-{{$.uuid}}`, graph's isRunDrawn) is drawn once
// per run: the write that makes the item there and the reads and DELETE after it name one item.
import { FlowError } from '../../errors.js';
import { hasTemplate, isRunDrawn } from '../../graph/index.js';
import { SET_VIA_VAR } from '../../project/index.js';
import { childFrame, type Resolver } from './frame.js';

/** Deeper than this is a loop in all but name. */
const MAX_DEPTH = 16;

export const env: Resolver<{ kind: 'env'; name: string }> = (expr, frame, raw) => {
  const { ctx } = frame;
  const name = expr.name;
  // Given values are literal text: never rendered, so a --var cannot inject a reference.
  if (Object.hasOwn(ctx.vars, name)) return ctx.vars[name];
  if (!Object.hasOwn(ctx.env, name)) {
    const where = ctx.envName ? `environment "${ctx.envName}"` : 'the environment';
    throw unresolved(raw, name, `${raw}: ${where} has no variable "${name}"; define it under variables:, or ${howToSet(name)}`);
  }
  const value = ctx.env[name];
  if (value === SET_VIA_VAR) {
    throw unresolved(raw, name, `${raw}: env.${name} is ${SET_VIA_VAR} and no value was given; ${howToSet(name)}`);
  }
  if (value === null || (typeof value !== 'object' && (typeof value !== 'string' || !hasTemplate(value)))) return value;
  if (frame.envStack.includes(name) || frame.envStack.length >= MAX_DEPTH) {
    const chain = [...frame.envStack, name].map((n) => `env.${n}`).join(' -> ');
    throw new FlowError('E_TEMPLATE_CYCLE', `environment variables refer to each other in a loop: ${chain}`, {
      details: { reference: raw, chain: [...frame.envStack, name] },
    });
  }
  const drawn = ctx.drawn?.get(name);
  if (drawn !== undefined) return drawn;
  const inner = childFrame(frame, name);
  if (ctx.drawn && isRunDrawn(value)) {
    const key = frame.engine.value(value, inner);
    ctx.drawn.set(name, key);
    return key;
  }
  const out = frame.engine.value(value, inner);
  if (inner.tainted) frame.tainted = true;
  return out;
};

/** Every way to give a value: the runner serves both `flow run` and the Vitest plugin. */
function howToSet(name: string): string {
  return `set it with --var ${name}=… (flow run), FLOW_VAR_${name}, or the plugin's vars option`;
}

function unresolved(raw: string, name: string, message: string): FlowError {
  return new FlowError('E_VAR_UNRESOLVED', message, { details: { reference: raw, variable: name, kind: 'env' } });
}
