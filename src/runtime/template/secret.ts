// `{{secret.NAME}}` and `!secret NAME`: through the run's secret store (env var, then the
// keychain, read before the run: SecretStore.load).
import type { Frame, Resolver } from './frame.js';

export function secretValue(name: string, frame: Frame): string {
  frame.tainted = true;
  return frame.ctx.secrets.value(name);
}

export const secret: Resolver<{ kind: 'secret'; name: string }> = (expr, frame) => secretValue(expr.name, frame);
