// Redaction: what the runner hands to any output (terminal, errors, reports, logs) goes
// through here first. Secret values become `***` wherever they appear, in the forms a
// request carries them; credential headers become `***` whatever their value.
//
// The length rule (README, "Secrets and redaction"): a form of MIN_SUBSTRING_LENGTH (8)
// characters or more is replaced wherever it appears. A shorter one would rewrite harmless
// text (a login `carol` turned `/basic-auth/carol/x` into `/basic-auth/***/x`), so a form of
// 4 to 7 characters is replaced only where it is a whole token of a header value, a body or
// a message (not next to a letter, digit or `_`), and in a URL only outside its path. A
// secret under 4 characters is replaced only where it is a whole value: a whole string
// passed to `text`, a whole JSON string in `value`, and a whole JSON string inside text (a
// body printed as text: `"pin":"Zq9"`, or `\"pin\":\"Zq9\"` in JSON inside JSON).
// Credential headers are redacted by name at any length.
//
// Redact, then cut: see cut.ts. JSON escapes of any character of a form: see escapes.ts.

import { isCredentialHeaderName, isCredentialName } from '../project/index.js';
import { CUT_MARK, safeCut, spansBeforeCuts } from './cut.js';
import { escapedSpans } from './escapes.js';
import { FormIndex, KEY_CHARS, maskSpans } from './form-index.js';

const REDACTED = '***';

/** Shortest form replaced wherever it appears, inside longer text too. */
const MIN_SUBSTRING_LENGTH = 8;
/** Shortest form replaced where it is a whole token (shorter: only a whole value). */
const MIN_TOKEN_LENGTH = KEY_CHARS;

type HeaderValue = string | string[] | number | undefined;

export interface Redactor {
  /**
   * A value to hide from now on. `secret` (default): every form it may travel in, base64
   * included (Basic auth). `token`: a credential the runner obtained (a login token), which
   * travels as it is: its plain, JSON- and URL-encoded forms only.
   */
  add(secret: string, kind?: 'secret' | 'token'): void;
  /** the text with every known secret, in every form, replaced by `***` */
  text(s: string): string;
  /** a URL: as `text`, except that a short secret (under 8 characters) is left in the path, where it names a resource */
  url(s: string): string;
  /**
   * Redact, then cut to at most `max` characters (never inside a `***`). `partial`: the text is
   * the start of a longer one, so its end may hold the start of a secret: that is hidden too.
   */
  excerpt(s: string, max: number, partial?: boolean): { text: string; more: number };
  /** credential headers (by name) -> `***`, keeping the scheme (`Bearer ***`); other values through `text` */
  headers(h: Record<string, string>): Record<string, string>;
  headers(h: Record<string, HeaderValue>): Record<string, string | string[]>;
  /** deep, for parsed JSON: strings through `text`, fields named like credentials -> `***` */
  value<T>(v: T): T;
  /** how many secrets are known */
  readonly size: number;
}

export function createRedactor(initial: Iterable<string> = []): Redactor {
  const secrets = new Set<string>();
  // Every form of 8 characters or more, found in one pass over a text.
  const index = new FormIndex();
  // Forms of 4 to 7 characters, replaced where they are whole tokens: the same one-pass index
  // passes over a match that is not one (a run with hundreds of logins holds hundreds of short
  // tokens; an alternation regex, or trying each form at each character, grew with their number).
  const tokens = new FormIndex();
  const tokenSpans = (s: string) => tokens.spans(s, (at, end) => wholeToken(s, at, end));
  // Every form, for the check before a cut mark.
  const forms: string[] = [];
  // Secrets under 4 characters, as whole JSON strings in text (quotes included; few: PINs).
  const quoted: string[] = [];

  /** `inUrl`: a short form is left in the URL's path, where it names a resource. */
  function redact(s: string, inUrl: boolean): string {
    if (secrets.size === 0 || s.length === 0) return s;
    if (secrets.has(s)) return REDACTED;
    let out = index.replace(s, REDACTED);
    for (const q of quoted) if (out.includes(q)) out = out.split(q).join(q.startsWith('\\') ? `\\"${REDACTED}\\"` : `"${REDACTED}"`);
    if (tokens.size) {
      const keep = inUrl ? pathOf(out) : undefined;
      const spans = tokenSpans(out).filter(([a, b]) => !keep || b <= keep[0] || a >= keep[1]);
      out = maskSpans(out, spans, REDACTED);
    }
    if (out.includes('\\')) {
      const spans = escapedSpans(out, (view) => [...index.spans(view), ...tokenSpans(view)]);
      out = maskSpans(out, spans, REDACTED);
    }
    if (out.includes(CUT_MARK)) out = maskSpans(out, spansBeforeCuts(out, forms), REDACTED);
    return out;
  }
  const text = (s: string) => redact(s, false);

  function excerpt(s: string, max: number, partial = false): { text: string; more: number } {
    let red = text(partial ? s + CUT_MARK : s);
    if (partial && red.endsWith(CUT_MARK)) red = red.slice(0, -CUT_MARK.length);
    const cut = safeCut(red, max);
    return { text: red.slice(0, cut), more: red.length - cut };
  }

  function headers(h: Record<string, HeaderValue>): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, v] of Object.entries(h)) {
      if (v === undefined) continue;
      const rule = headerRule(name) ?? text;
      out[name] = Array.isArray(v) ? v.map((x) => rule(x, text)) : rule(String(v), text);
    }
    return out;
  }

  function value(v: unknown): unknown {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(value);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[text(k)] = x !== null && x !== undefined && isCredentialName(k) ? REDACTED : value(x);
    }
    return out;
  }

  const redactor: Redactor = {
    add(secret, kind = 'secret') {
      if (!secret || secrets.has(secret)) return;
      secrets.add(secret);
      if (secret.length < MIN_TOKEN_LENGTH) {
        const json = JSON.stringify(secret);
        quoted.push(json, JSON.stringify(json).slice(1, -1));
      }
      for (const f of plainFormsOf(secret)) {
        if (f.length >= MIN_SUBSTRING_LENGTH) index.add(f);
        else if (f.length >= MIN_TOKEN_LENGTH) tokens.add(f);
        else continue;
        forms.push(f);
      }
      // Base64 cores are found inside longer encodings only; as starts before a cut, any
      // letter would match one.
      if (kind === 'secret') for (const f of base64Forms(secret)) index.add(f);
    },
    text,
    url: (s) => redact(s, true),
    excerpt,
    headers: headers as Redactor['headers'],
    value: value as Redactor['value'],
    get size() {
      return secrets.size;
    },
  };
  for (const s of initial) redactor.add(s);
  return redactor;
}

const WORD_CHAR = /^[\p{L}\p{N}_]/u;

/** Whether text[at, end) is a whole token: a boundary only where the form itself begins or ends with a word character. */
function wholeToken(text: string, at: number, end: number): boolean {
  if (at > 0 && isWordAt(text, at) && isWordBefore(text, at)) return false;
  return !(end < text.length && isWordBefore(text, end) && isWordAt(text, end));
}

function isWordAt(text: string, at: number): boolean {
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Whether the character (a whole code point) that ends just before `at` is a word character. */
function isWordBefore(text: string, at: number): boolean {
  const low = text.charCodeAt(at - 1);
  const pair = at >= 2 && low >= 0xdc00 && low <= 0xdfff;
  return WORD_CHAR.test(text.slice(pair ? at - 2 : at - 1, at));
}

/** `[start, end)` of the path of an absolute URL (after the authority, before `?` or `#`). */
function pathOf(url: string): [number, number] | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (!authority) return undefined;
  const start = authority[0].length;
  const rest = url.slice(start).search(/[?#]/);
  return [start, rest < 0 ? url.length : start + rest];
}

// ---- the forms a secret travels in ----

// Letters, digits, `_`, `-` and `.` travel unchanged in every form below: a token made of
// them alone (a JWT, most opaque tokens) has one form, and a run registers one per login.
const SAME_IN_EVERY_FORM = /^[\w.-]*$/;

function plainFormsOf(secret: string): string[] {
  if (SAME_IN_EVERY_FORM.test(secret)) return [secret];
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([
    secret,
    json,
    // a JSON body that holds JSON text (a server echoing what it received)
    JSON.stringify(json).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
  ]);
  // as `new URL()` writes it when the secret is in a path or query written by hand (only some characters escaped)
  try {
    if (!/[?#]/.test(secret)) forms.add(new URL(`http://h/${secret}`).pathname.slice(1));
    if (!secret.includes('#')) forms.add(new URL(`http://h/?${secret}`).search.slice(1));
  } catch {
    // not a URL part in any form: nothing more to hide
  }
  return [...forms];
}

/**
 * Base64 of the secret at each of the 3 byte alignments, cut to the characters that only
 * the secret's bytes decide. So the secret is found inside a longer encoding too, as the
 * password inside `Basic base64(user:password)`. Standard and URL-safe alphabets, no padding.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Characters are 6 bits; the first `8*shift` bits belong to the unknown prefix.
    const start = Math.ceil((8 * shift) / 6);
    // After the secret comes unknown text: only characters wholly inside it are certain.
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_SUBSTRING_LENGTH) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

// ---- credential headers and fields ----

type HeaderRule = (value: string, text: (s: string) => string) => string;

/** `Bearer abc` -> `Bearer ***`: the scheme tells the reader which auth was used. */
const keepScheme: HeaderRule = (value) => {
  const m = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/.exec(value);
  return m ? `${m[1]} ${REDACTED}` : REDACTED;
};

/** `a=1; b=2` -> `a=***; b=***`: names help debugging, values are credentials. */
const cookiePairs: HeaderRule = (value) =>
  value
    .split(';')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
    })
    .join(';');

/** `sid=abc; Path=/; HttpOnly` -> `sid=***; Path=/; HttpOnly`: attributes are not secret. */
const setCookie: HeaderRule = (value, text) => {
  const semi = value.indexOf(';');
  const first = semi < 0 ? value : value.slice(0, semi);
  const rest = semi < 0 ? '' : value.slice(semi);
  const eq = first.indexOf('=');
  return (eq < 0 ? REDACTED : `${first.slice(0, eq)}=${REDACTED}`) + text(rest);
};

const HEADER_RULES: Record<string, HeaderRule> = {
  authorization: keepScheme,
  'proxy-authorization': keepScheme,
  cookie: cookiePairs,
  'set-cookie': setCookie,
};

/** Rules by header name as written: a run sees the same few names on every request. */
const rulesByName = new Map<string, HeaderRule | null>();

function headerRule(name: string): HeaderRule | null {
  let rule = rulesByName.get(name);
  if (rule === undefined) {
    const lower = name.toLowerCase();
    rule = HEADER_RULES[lower] ?? (isCredentialHeaderName(lower) ? () => REDACTED : null);
    // bounded: names come from the project and from servers, which could send any
    if (rulesByName.size < 1000) rulesByName.set(name, rule);
  }
  return rule;
}

/** True for a header whose value is a credential whatever it holds. */
export function isCredentialHeader(name: string): boolean {
  return headerRule(name) !== null;
}
export { CUT_MARK } from './cut.js';
