// `{{$.base64.encode('…')}}`, `$.hex…`, `$.url…` (encodeURIComponent). The argument is a
// template of its own (`'{{env.user}}:{{secret.PW}}'`), rendered first. An encoding of a
// secret is as secret as the secret: it is registered for redaction.
import type { Codec, TemplatePart } from '../../../graph/index.js';
import { FlowError } from '../../../errors.js';
import { childFrame, type Resolver } from '../frame.js';

type Op = 'encode' | 'decode';
/** Returns the result, or undefined when the input cannot be decoded. */
type Transform = (text: string) => string | undefined;

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;
const HEX = /^(?:[0-9A-Fa-f]{2})*$/;

const CODECS: Record<Codec, Record<Op, Transform>> = {
  base64: {
    encode: (t) => Buffer.from(t, 'utf8').toString('base64'),
    // Both alphabets (standard and URL-safe); whitespace from wrapped input is ignored.
    decode: (t) => {
      const s = t.replace(/\s+/g, '');
      return BASE64.test(s) ? Buffer.from(s, 'base64').toString('utf8') : undefined;
    },
  },
  hex: {
    encode: (t) => Buffer.from(t, 'utf8').toString('hex'),
    decode: (t) => (HEX.test(t) ? Buffer.from(t, 'hex').toString('utf8') : undefined),
  },
  url: {
    encode: (t) => encodeURIComponent(t),
    decode: (t) => {
      try {
        return decodeURIComponent(t);
      } catch {
        return undefined;
      }
    },
  },
};

export const codec: Resolver<{ kind: 'codec'; codec: Codec; op: Op; arg: TemplatePart[] }> = (expr, frame, raw) => {
  const inner = childFrame(frame);
  const out = CODECS[expr.codec][expr.op](frame.engine.text(expr.arg, inner));
  // The message never shows the input: it may hold a secret.
  if (out === undefined)
    throw new FlowError('E_TEMPLATE_SYNTAX', `${raw}: the argument is not valid ${expr.codec} and cannot be decoded`, { details: { reference: raw } });
  if (inner.tainted) {
    frame.tainted = true;
    frame.ctx.secrets.markSecret(out);
  }
  return out;
};
