// `aws_sigv4`: AWS Signature Version 4, by the AWS SDK's own signer (@smithy/signature-v4),
// so canonical query encoding, temporary credentials (`x-amz-security-token`) and S3's rules
// (`x-amz-content-sha256`, no double-encoded path) are AWS's, not ours. Signed in `apply`,
// once per request: a signature stays valid for 15 minutes, longer than any retry waits.
import { getHeader, setCredentialHeader, setHeader, type PreparedRequest } from '../http/index.js';
import { credential, renderCredential, renderSetting } from './credentials.js';
import { authConfigError, guardLogin } from './errors.js';
import type { AuthContext, AuthStrategy } from './types.js';

interface Keys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
  service: string;
}

/** What S3 accepts instead of a body's hash (a multipart body is hashed by nobody before it is sent). */
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
/** The headers the signer adds; every other header is sent as written. */
const SIGNED_HEADERS = ['authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256'];

export const awsSigV4: AuthStrategy = {
  kind: 'aws_sigv4',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      const keys: Keys = {
        // an access key id names the key, it is no secret (and shows in every Authorization header)
        accessKeyId: await renderCredential(ctx, 'aws_sigv4', config.options, 'access_key', { secret: false }),
        secretAccessKey: await renderCredential(ctx, 'aws_sigv4', config.options, 'secret_key'),
        region: (await renderSetting(ctx, config.options, 'region')) ?? '',
        service: (await renderSetting(ctx, config.options, 'service')) ?? '',
      };
      if (!keys.region) throw authConfigError(ctx, 'aws_sigv4', 'has no `region` (us-east-1, eu-west-3…)');
      if (!keys.service) throw authConfigError(ctx, 'aws_sigv4', 'has no `service` (s3, execute-api, lambda…)');
      if (config.options.session_token !== undefined) keys.sessionToken = await renderCredential(ctx, 'aws_sigv4', config.options, 'session_token');
      return { values: {}, credentials: { keys } };
    }),
  async apply(req, _config, session, ctx) {
    const keys = session.credentials?.keys as Keys | undefined;
    if (!keys) credential(session.credentials, 'keys'); // throws: apply before login
    await sign(req, keys!, ctx);
  },
};

async function sign(req: PreparedRequest, keys: Keys, ctx: AuthContext): Promise<void> {
  const s3 = keys.service === 's3';
  if (req.body !== undefined && typeof req.body !== 'string' && !Buffer.isBuffer(req.body)) {
    // multipart: undici writes the boundary while sending, after the signature is made
    if (!s3) throw authConfigError(ctx, 'aws_sigv4', `cannot sign a multipart body for service ${keys.service} (only S3 accepts an unsigned payload)`);
    setHeader(req, 'x-amz-content-sha256', UNSIGNED_PAYLOAD);
  }
  // loaded on first use: most runs never sign for AWS (start-up time)
  const [{ SignatureV4 }, { Hash }] = await Promise.all([import('@smithy/signature-v4'), import('@smithy/hash-node')]);
  const signer = new SignatureV4({
    credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey, ...(keys.sessionToken ? { sessionToken: keys.sessionToken } : {}) },
    region: keys.region,
    service: keys.service,
    sha256: Hash.bind(null, 'sha256'),
    // the SDK's S3 client: the path is encoded once, and the payload hash is sent as a header
    uriEscapePath: !s3,
    applyChecksum: s3,
  });
  const headers: Record<string, string> = { host: req.url.host };
  for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() !== 'host') headers[k.toLowerCase()] = v;
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of req.url.searchParams) {
    const had = query[k];
    query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const signed = await signer.sign(
    {
      method: req.method,
      protocol: req.url.protocol,
      hostname: req.url.hostname,
      port: req.url.port ? Number(req.url.port) : undefined,
      // as sent (encoded once): the signer encodes it again for every service but S3, as AWS asks
      path: req.url.pathname,
      query,
      headers,
      body: req.body as string | Buffer | undefined,
    },
    { signingDate: new Date(ctx.now()) },
  );
  // S3 quotes the signature it got in a SignatureDoesNotMatch answer: never shown
  const signature = /Signature=([0-9a-f]+)/.exec(String(signed.headers.authorization ?? ''))?.[1];
  if (signature) ctx.redact(signature);
  for (const name of SIGNED_HEADERS) {
    const value = signed.headers[name];
    if (value !== undefined && getHeader(req, name) !== value) setCredentialHeader(req, name, value);
  }
}
