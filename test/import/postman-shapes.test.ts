// Postman collections in the shapes people export them: in the Postman API's envelope, with a
// variable host, credentials sent in each body as collection variables, auth inherited through
// folders, and an environment export beside it. Small files written for the test.
import { afterEach, describe, expect, it } from 'vitest';
import { importApi } from '../../src/import/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { fileValue, operation, texts } from './helpers.js';

afterEach(cleanProjects);

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const raw = (v: unknown) => ({ mode: 'raw', raw: JSON.stringify(v, null, 2) });

function linkCollection() {
  return {
    info: { name: 'Link API', schema: SCHEMA },
    variable: [
      { key: 'env_url', value: 'sandbox.linky.test' },
      { key: 'client_id', value: '' },
      { key: 'secret_key', value: '' },
    ],
    item: [
      {
        name: 'Tokens',
        item: [
          {
            name: 'Create link token',
            request: {
              method: 'POST',
              header: [{ key: 'Content-Type', value: 'application/json' }],
              body: raw({ client_id: '{{client_id}}', secret: '{{secret_key}}', user: { client_user_id: 'u-1' } }),
              url: { raw: 'https://{{env_url}}/link/token/create', host: ['{{env_url}}'], path: ['link', 'token', 'create'] },
            },
          },
        ],
      },
    ],
  };
}

describe('postman collections as exported', () => {
  it('reads a collection inside the API envelope; a variable host is an open question; body credentials are secrets', async () => {
    const dir = await writeProject({ 'link.json': JSON.stringify({ collection: linkCollection() }) });
    const r = await importApi(['link.json'], { cwd: dir });
    expect(r.findings).toEqual([]);
    expect(fileValue(r, 'environments/default.yaml').variables).toMatchObject({ baseUrl: '<SET_VIA_--var>', client_id: '<SET_VIA_--var>' });
    expect(operation(r, 'token.create_link_token').body).toEqual({
      client_id: '{{env.client_id}}',
      secret: '{{secret.SECRET_KEY}}',
      user: { client_user_id: 'u-1' },
    });
    expect(r.draft.questions.map((q) => q.text)).toEqual([expect.stringContaining('the host is the variable {{env_url}}')]);
    // the environment file's comment shows the reference form as it is written
    expect(texts(r)['environments/default.yaml']).toContain('# Secrets referenced as {{secret.NAME}} (keychain');
  });

  it('folder auth is inherited (inherit, noauth, awsv4, oauth1, oauth2 client credentials); an environment export names secrets, never copies them', async () => {
    const collection = {
      info: { name: 'Store', schema: SCHEMA },
      auth: {
        type: 'awsv4',
        awsv4: [
          { key: 'accessKey', value: '{{aws_access}}' },
          { key: 'secretKey', value: '{{aws_secret}}' },
          { key: 'region', value: 'eu-west-1' },
          { key: 'service', value: 's3' },
        ],
      },
      item: [
        { name: 'Buckets', item: [{ name: 'List buckets', request: { method: 'GET', auth: { type: 'inherit' }, url: 'https://store.test/buckets' } }] },
        {
          name: 'Health',
          event: [{ listen: 'prerequest', script: { exec: ["pm.environment.set('stamp', Date.now());", "require('child_process');"] } }],
          request: { method: 'GET', auth: { type: 'noauth' }, url: 'https://store.test/health?at={{stamp}}' },
        },
        {
          name: 'Legacy',
          auth: {
            type: 'oauth1',
            oauth1: [
              { key: 'consumerKey', value: '{{ck}}' },
              { key: 'consumerSecret', value: 'literal-consumer-secret' },
              { key: 'token', value: '{{tk}}' },
              { key: 'tokenSecret', value: '{{ts}}' },
            ],
          },
          item: [{ name: 'Old orders', request: { method: 'GET', url: 'https://store.test/orders' } }],
        },
        {
          name: 'Partners',
          auth: {
            type: 'oauth2',
            oauth2: [
              { key: 'grant_type', value: 'client_credentials' },
              { key: 'accessTokenUrl', value: 'https://store.test/oauth/token' },
              { key: 'clientId', value: '{{partner_id}}' },
              { key: 'clientSecret', value: '{{partner_secret}}' },
            ],
          },
          item: [{ name: 'Partner list', request: { method: 'GET', auth: { type: 'inherit' }, url: 'https://store.test/partners' } }],
        },
      ],
    };
    const env = {
      id: 'e1',
      name: 'Prod',
      values: [
        { key: 'aws_access', value: 'AKIAEXAMPLEVALUE', type: 'secret', enabled: true },
        { key: 'pin_code', value: '99887766', type: 'secret', enabled: true },
        { key: 'ck', value: 'consumer-k-value', type: 'default', enabled: true },
      ],
    };
    const dir = await writeProject({ 'store.json': JSON.stringify(collection), 'prod.json': JSON.stringify({ environment: env }) });
    const r = await importApi(['store.json', 'prod.json'], { cwd: dir });
    expect(r.findings).toEqual([]);
    const actorFiles = r.files.filter((f) => f.kind === 'actor').map((f) => (f.doc.toJS() as { auth: Record<string, unknown> }).auth);
    expect(actorFiles).toEqual(
      expect.arrayContaining([
        { strategy: 'aws_sigv4', access_key: '{{secret.AWS_ACCESS}}', secret_key: '{{secret.AWS_SECRET}}', region: 'eu-west-1', service: 's3' },
        expect.objectContaining({ strategy: 'oauth1', consumer_key: '{{secret.CK}}', token: '{{secret.TK}}', token_secret: '{{secret.TS}}' }),
        expect.objectContaining({
          strategy: 'oauth2_client_credentials',
          token_url: 'https://store.test/oauth/token',
          client_id: '{{env.partner_id}}',
          client_secret: '{{secret.PARTNER_SECRET}}',
        }),
      ]),
    );
    expect(operation(r, 'bucket.list_buckets').actor).toBeDefined();
    expect(operation(r, 'health.health').actor).toBeUndefined();
    // a pre-request script is read, not run: what it sets is named and supplied on each run
    expect(r.plan).toContain('The pre-request script of "Health" sets {{stamp}} before the request');
    expect(operation(r, 'health.health').query_params).toEqual({ at: '{{env.stamp}}' });
    const all = Object.values(texts(r)).join('\n') + r.plan;
    for (const value of ['AKIAEXAMPLEVALUE', '99887766', 'literal-consumer-secret', 'consumer-k-value']) expect(all).not.toContain(value);
  });
});
