// Redaction: what the runner hands to any output (terminal, errors, reports, logs) goes
// through here first. Secret values become `***` wherever they appear, in the forms a
// request carries them; credential headers become `***` whatever their value.
//
// The length rule: a secret of 4 characters or more is replaced wherever it appears
// (and its derived forms, when those are 4 or more). A shorter one would shred every
// output (a 1-character secret would replace every such letter), so it is replaced only
// where it is a whole value: a whole string passed to `text`, a whole JSON string in
// `value`, a whole cookie value. Credential headers are redacted by name at any length.

import { FormIndex, KEY_CHARS } from './redact-index.js';

export const REDACTED = '***';

/** Shortest secret (and derived form) replaced inside longer text. */
export const MIN_SUBSTRING_LENGTH = KEY_CHARS;

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
  // Every form of every secret (4 characters or more), found in one pass over a text.
  const index = new FormIndex();

  function text(s: string): string {
    if (secrets.size === 0 || s.length === 0) return s;
    if (secrets.has(s)) return REDACTED;
    return index.replace(s, REDACTED);
  }

  function headerValue(name: string, value: string): string {
    const rule = headerRule(name);
    return rule ? rule(value, text) : text(value);
  }

  function headers(h: Record<string, HeaderValue>): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, v] of Object.entries(h)) {
      if (v === undefined) continue;
      out[name] = Array.isArray(v) ? v.map((x) => headerValue(name, x)) : headerValue(name, String(v));
    }
    return out;
  }

  function value(v: unknown): unknown {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(value);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[text(k)] = x !== null && x !== undefined && isCredentialKey(k) ? REDACTED : value(x);
    }
    return out;
  }

  const redactor: Redactor = {
    add(secret, kind = 'secret') {
      if (!secret || secrets.has(secret)) return;
      secrets.add(secret);
      const all = kind === 'token' ? plainFormsOf(secret) : formsOf(secret);
      for (const f of all) if (f.length >= MIN_SUBSTRING_LENGTH) index.add(f);
    },
    text,
    headers: headers as Redactor['headers'],
    value: value as Redactor['value'],
    get size() {
      return secrets.size;
    },
  };
  for (const s of initial) redactor.add(s);
  return redactor;
}

// ---- the forms a secret travels in ----

/** The secret as it may appear in output: raw, JSON-escaped, URL- and form-encoded, base64. */
export function formsOf(secret: string): string[] {
  return [...plainFormsOf(secret), ...base64Forms(secret)];
}

// Letters, digits, `_`, `-` and `.` travel unchanged in every form below: a token made of
// them alone (a JWT, most opaque tokens) has one form, and a run registers one per login.
const SAME_IN_EVERY_FORM = /^[\w.-]*$/;

function plainFormsOf(secret: string): string[] {
  if (SAME_IN_EVERY_FORM.test(secret)) return [secret];
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    ...new Set([
      secret,
      json,
      // a JSON body that holds JSON text (a server echoing what it received)
      JSON.stringify(json).slice(1, -1),
      encodeURIComponent(secret),
      new URLSearchParams({ v: secret }).toString().slice(2),
      // as the URL parser writes it when the secret is in a path or query written by hand
      ...urlForms(secret),
    ]),
  ];
}

/** The secret as `new URL()` serializes it in a path and in a query (only some characters escaped). */
function urlForms(secret: string): string[] {
  const forms: string[] = [];
  try {
    if (!/[?#]/.test(secret)) forms.push(new URL(`http://h/${secret}`).pathname.slice(1));
    if (!secret.includes('#')) forms.push(new URL(`http://h/?${secret}`).search.slice(1));
  } catch {
    // not a URL part in any form: nothing more to hide
  }
  return forms;
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

const opaque: HeaderRule = () => REDACTED;

const HEADER_RULES: Record<string, HeaderRule> = {
  authorization: keepScheme,
  'proxy-authorization': keepScheme,
  cookie: cookiePairs,
  'set-cookie': setCookie,
};

/** `X-Auth-Token`, `X-Api-Key`, `Api-Key`, `apikey`, `Client-Secret`, … (and `_` spellings). */
const CREDENTIAL_HEADER = /(?:^|[-_])(?:token|key|secret|apikey|password)$|^apikey$/i;

export function headerRule(name: string): HeaderRule | undefined {
  const lower = name.toLowerCase();
  return HEADER_RULES[lower] ?? (CREDENTIAL_HEADER.test(lower) ? opaque : undefined);
}

/** True for a header whose value is a credential whatever it holds. */
export function isCredentialHeader(name: string): boolean {
  return headerRule(name) !== undefined;
}

/** JSON fields that hold credentials (compared without case, `-` and `_`). */
const CREDENTIAL_KEYS = new Set([
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'sessiontoken',
  'apikey',
  'apisecret',
  'privatekey',
  'secretkey',
  'secretaccesskey',
  'authorization',
]);

export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEYS.has(key.replace(/[-_]/g, '').toLowerCase());
}
