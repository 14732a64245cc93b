// The one vocabulary of credential names. Redaction (what output hides), lint
// (W_PLAINTEXT_SECRET), `flow lint --fix` and the importer (what becomes `{{secret.X}}`, what
// its self-check reports) all ask here, so what redaction hides and what lint warns about
// cannot differ. It lives in the first stage because every later stage needs it.

/** Names are compared in lower case without `-`, `_`, `.` and spaces: `X-Api-Key` = `apiKey`. */
function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

/** Whole names that hold a credential. */
const WHOLE = new Set(['key', 'pwd', 'sid', 'jwt', 'authorization', 'proxyauthorization', 'cookie']);

/** Endings that make a name a credential: `client_secret`, `X-Auth-Token`, `db_password`. */
const ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'consumerkey',
  'credential',
  'credentials',
  'sessionid',
  'signature',
  // a one-time code: `X-Gitea-OTP`
  'otp',
];

/** Names that end like a credential but name something about one: a type, a URL, an id. */
const NOT_CREDENTIAL = new Set([
  'tokentype',
  'authtype',
  'authorizationtype',
  'tokenlasteight',
  'passwordpolicy',
  'secretname',
  'tokenurl',
  'authurl',
  'authorizationurl',
  'refreshurl',
  'keyid',
  'tokenendpoint',
  'signaturemethod',
  'signaturealgorithm',
  'credentialtype',
]);

/** True for a field, header, parameter, variable or key name whose value is a credential. */
export function isCredentialName(name: string): boolean {
  const n = normalizeName(name);
  if (!n || NOT_CREDENTIAL.has(n)) return false;
  return WHOLE.has(n) || ENDINGS.some((e) => n.endsWith(e));
}

/**
 * A credential a server issues in an answer (an API token's `secret`): a credential name, but
 * not a bare `key`, which names the object it belongs to (S3's, a flag's). The runner hides and
 * removes what answers hold under such names; the importer binds a placeholder to it.
 */
export function namesIssuedCredential(name: string): boolean {
  return isCredentialName(name) && name.toLowerCase() !== 'key';
}

/**
 * True for a header whose value is a credential whatever it holds. Besides the names above, a
 * header whose last word is `key` (`X-Client-Key`, `Api_Key`): a header carries a key by name.
 */
export function isCredentialHeaderName(name: string): boolean {
  return isCredentialName(name) || /(?:^|[-_])key$/i.test(name);
}
