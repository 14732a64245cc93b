// Test certificates made by openssl in a temporary directory (shared/targets.md section 7):
// a CA, a server certificate for 127.0.0.1, a client certificate (PEM, an encrypted PEM key,
// and a PKCS#12 bundle), and a client certificate from an unrelated CA.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const OPENSSL = '/usr/bin/openssl';
export const OPENSSL_INSTALL = 'apt-get update && apt-get install -y openssl';
export const KEY_PASSWORD = 'changeit-key-password';

export function opensslMissing(): string | undefined {
  return existsSync(OPENSSL) ? undefined : `${OPENSSL} not found`;
}

export function makeCerts(dir: string): void {
  const run = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: 'ignore' });
  const ext = (name: string, text: string) => writeFileSync(path.join(dir, name), text);
  const req = (key: string, csr: string, subj: string) => run('req', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-keyout', key, '-out', csr, '-subj', subj);
  const sign = (csr: string, ca: string, extfile: string, out: string) =>
    run('x509', '-req', '-in', csr, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '30', '-sha256', '-extfile', extfile, '-out', out);
  const ca = (name: string, cn: string) =>
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '30',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  ca('ca', 'Test Root CA');
  ext(
    'server.ext',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n',
  );
  ext('client.ext', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n');
  req('server.key', 'server.csr', '/CN=localhost');
  sign('server.csr', 'ca', 'server.ext', 'server.crt');
  req('client.key', 'client.csr', '/CN=test-client/O=api-tester');
  sign('client.csr', 'ca', 'client.ext', 'client.crt');
  run('pkey', '-in', 'client.key', '-aes256', '-passout', `pass:${KEY_PASSWORD}`, '-out', 'client-enc.key');
  run('pkcs12', '-export', '-in', 'client.crt', '-inkey', 'client.key', '-certfile', 'ca.crt', '-passout', `pass:${KEY_PASSWORD}`, '-out', 'client.p12');
  ca('rogue-ca', 'Rogue CA');
  req('rogue.key', 'rogue.csr', '/CN=rogue');
  sign('rogue.csr', 'rogue-ca', 'client.ext', 'rogue.crt');
}

export interface OpensslServer {
  url: string;
  close(): void;
}

/**
 * `openssl s_server` with the server certificate of `makeCerts(dir)`, requiring a client
 * certificate from its CA: a TLS server that is not Node's (it refuses a certificate with an
 * alert, where Node's closes the connection). `args`: `-tls1_2` or `-tls1_3`.
 */
export async function startOpensslServer(dir: string, args: string[] = []): Promise<OpensslServer> {
  const child = spawn(
    OPENSSL,
    [
      's_server',
      '-accept',
      '127.0.0.1:0',
      '-cert',
      'server.crt',
      '-key',
      'server.key',
      '-CAfile',
      'ca.crt',
      '-Verify',
      '1',
      '-verify_return_error',
      '-www',
      ...args,
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => (out += c));
  for (let i = 0; i < 200; i++) {
    const port = /ACCEPT .*:(\d+)/.exec(out)?.[1];
    if (port) return { url: `https://127.0.0.1:${port}`, close: () => child.kill() };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill();
  throw new Error(`openssl s_server did not start: ${out}`);
}
