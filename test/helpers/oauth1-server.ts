// oauthlib's OAuth 1.0a verifier (test/fixtures/auth/oauth1_server.py) under Debian's
// gunicorn on 127.0.0.1:<free port>. Needs python3-oauthlib, python3-flask and gunicorn:
// with CI=true a missing one FAILS the suite, elsewhere the block is skipped with the reason.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { portFromLog, stop, waitUntilUp } from './httpbin.js';
import { describeWhenAvailable } from './needs.js';

const GUNICORN = '/usr/bin/gunicorn';
const FIXTURES = path.resolve(__dirname, '../fixtures/auth');
const OAUTH1_INSTALL = 'apt-get update && apt-get install -y python3-oauthlib python3-flask gunicorn';

export const OAUTH1 = { consumerKey: 'ck-reqflow', consumerSecret: 'cs-kd94hf93k423kf44', token: 'tk-nnch734d00sl2jdk', tokenSecret: 'ts-pfkkdhi9sl3r4s00' };

export interface OAuth1Server {
  url: string;
  close(): Promise<void>;
}

function missing(): string | undefined {
  if (!existsSync(GUNICORN)) return `${GUNICORN} not found`;
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import oauthlib, flask'], { stdio: 'ignore' });
  return probe.status === 0 ? undefined : 'python3-oauthlib or python3-flask is not installed';
}

async function start(rsaPublic: string): Promise<OAuth1Server> {
  const child = spawn(GUNICORN, ['-b', '127.0.0.1:0', '-w', '1', '-k', 'gthread', '--threads', '8', '--chdir', FIXTURES, 'oauth1_server:app'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PYTHONDONTWRITEBYTECODE: '1',
      OAUTH1_CONSUMER_KEY: OAUTH1.consumerKey,
      OAUTH1_CONSUMER_SECRET: OAUTH1.consumerSecret,
      OAUTH1_TOKEN: OAUTH1.token,
      OAUTH1_TOKEN_SECRET: OAUTH1.tokenSecret,
      OAUTH1_RSA_PUBLIC: rsaPublic,
    },
    detached: true,
  });
  const close = () => stop(child);
  try {
    const port = await portFromLog(child, 10_000);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(`${url}/health`, 10_000);
    return { url, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A describe block with the verifier started before and stopped after (RSA-SHA1 checked with `rsaPublic`). */
export function describeOAuth1(name: string, rsaPublic: string, body: (server: () => OAuth1Server) => void): void {
  const why = missing();
  describeWhenAvailable(name, why && `${why}; install with: ${OAUTH1_INSTALL}`, () => {
    let srv: OAuth1Server | undefined;
    beforeAll(async () => {
      srv = await start(rsaPublic);
    });
    afterAll(() => srv?.close());
    body(() => srv!);
  });
}
