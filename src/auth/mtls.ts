// `mtls`: a client certificate (PEM `cert_path` + `key_path`, or a PKCS#12 bundle with
// `format: pfx`/`p12`), optionally a `key_password` and a `ca_cert_path` to trust the server.
// Read and checked at login, so a wrong file or password is a clear E_AUTH naming the file
// (never its content) before any request; the HTTP client then sends the actor's requests
// on an agent of its own built from these options (HttpRequest.tls).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { hasCode } from '../errors.js';
import { renderCredential, renderSetting } from './credentials.js';
import { authConfigError, guardLogin } from './errors.js';
import type { TlsOptions } from '../http/index.js';
import type { AuthContext, AuthStrategy } from './types.js';

const FORMATS = ['pem', 'pfx', 'p12'];

export const mtls: AuthStrategy = {
  kind: 'mtls',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      const format = ((await renderSetting(ctx, config.options, 'format')) ?? 'pem').toLowerCase();
      if (!FORMATS.includes(format)) throw authConfigError(ctx, 'mtls', `has format "${format}"; use pem, pfx or p12`);
      const passphrase = config.options.key_password === undefined ? undefined : await renderCredential(ctx, 'mtls', config.options, 'key_password');
      const tls: TlsOptions = {};
      if (passphrase !== undefined) tls.passphrase = passphrase;
      const certPath = await renderCredential(ctx, 'mtls', config.options, 'cert_path', { secret: false });
      if (format === 'pem') {
        const cert = await readSetting(ctx, 'cert_path', certPath);
        const keyFile = await renderCredential(ctx, 'mtls', config.options, 'key_path', { secret: false });
        const key = await readSetting(ctx, 'key_path', keyFile);
        checkPem(ctx, cert, certPath, key, keyFile, passphrase);
        Object.assign(tls, { cert, key });
      } else {
        tls.pfx = await readSetting(ctx, 'cert_path', certPath);
        try {
          createSecureContext({ pfx: tls.pfx, passphrase });
        } catch (err) {
          const wrong = /mac verify|password|decrypt/i.test(String((err as Error).message));
          throw authConfigError(
            ctx,
            'mtls',
            wrong ? `has a \`key_password\` that does not open cert_path ${certPath}` : `has a cert_path ${certPath} that is not a PKCS#12 bundle`,
          );
        }
      }
      const caPath = await renderSetting(ctx, config.options, 'ca_cert_path');
      if (caPath !== undefined) tls.ca = await readSetting(ctx, 'ca_cert_path', caPath);
      return { values: {}, credentials: { tls } };
    }),
  apply(req, _config, session) {
    const tls = session.credentials?.tls as TlsOptions | undefined;
    if (!tls) throw new Error('auth: no "tls" credential in the session; call login() first');
    // the same object for every request of the session: the HTTP client keeps one agent per object
    req.tls = tls;
  },
};

/** A file named by a setting, relative to the project directory; E_AUTH naming it when unreadable. */
async function readSetting(ctx: AuthContext, key: string, file: string): Promise<Buffer> {
  try {
    return await readFile(path.resolve(ctx.projectDir, file));
  } catch (err) {
    const code = hasCode(err) ? ` (${err.code})` : '';
    throw authConfigError(ctx, 'mtls', `cannot read ${key} ${file}${code}`);
  }
}

function checkPem(ctx: AuthContext, cert: Buffer, certPath: string, keyPem: Buffer, keyPath: string, passphrase: string | undefined): void {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    throw authConfigError(ctx, 'mtls', `has a cert_path ${certPath} that is not a PEM certificate`);
  }
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(keyPem.toString('latin1'));
  if (encrypted && passphrase === undefined) throw authConfigError(ctx, 'mtls', `has an encrypted key_path ${keyPath} and no \`key_password\``);
  let key;
  try {
    key = createPrivateKey({ key: keyPem, format: 'pem', ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch {
    if (encrypted) throw authConfigError(ctx, 'mtls', `has a \`key_password\` that does not decrypt key_path ${keyPath}`);
    throw authConfigError(ctx, 'mtls', `has a key_path ${keyPath} that is not a PEM private key`);
  }
  if (!x509.checkPrivateKey(key)) throw authConfigError(ctx, 'mtls', `has a key_path ${keyPath} that is not the key of cert_path ${certPath}`);
}
