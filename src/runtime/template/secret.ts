// `{{secret.NAME}}` and `!secret NAME`: through the run's secret store (env var, then keychain).
import type { Frame, Resolver } from './frame.js';

export function secretValue(name: string, frame: Frame): Promise<string> {
  frame.tainted = true;
  return frame.ctx.secrets.get(name);
}

export const secret: Resolver<{ kind: 'secret'; name: string }> = (expr, frame) => secretValue(expr.name, frame);
