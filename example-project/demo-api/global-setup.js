// Vitest globalSetup of the example: start the bundled demo API on a free port and point the
// project at it. Runs once, in the main Vitest process, before any test file.
import { randomBytes } from 'node:crypto';
import { startDemoApi } from './server.js';

// The secrets the project reads (`!secret ADMIN_PASSWORD`, `{{secret.PARTNER_API_KEY}}`, …).
const SECRETS = ['ADMIN_PASSWORD', 'PARTNER_API_KEY', 'AUDITOR_PASSWORD'];

export default async function setup() {
  // Already pointed at an API (FLOW_VAR_baseUrl=… npm run example): use it, start nothing.
  if (process.env.FLOW_VAR_baseUrl) return undefined;

  // DEMO ONLY. The demo API is started here, so we can invent its credentials: a fresh random
  // value per run, handed to the server and to reqflow as FLOW_SECRET_<NAME>. Against a real
  // API, secrets come from the OS keychain (`flow secret set ADMIN_PASSWORD`) or, in CI, from
  // the CI's secret store exported as FLOW_SECRET_<NAME>; they are never written in the project.
  for (const name of SECRETS) process.env[`FLOW_SECRET_${name}`] ??= randomBytes(12).toString('base64url');

  const api = await startDemoApi({
    adminPassword: process.env.FLOW_SECRET_ADMIN_PASSWORD,
    partnerApiKey: process.env.FLOW_SECRET_PARTNER_API_KEY,
    auditorPassword: process.env.FLOW_SECRET_AUDITOR_PASSWORD,
  });
  // environments/local.yaml has `baseUrl: <SET_VIA_--var>`: FLOW_VAR_baseUrl fills it in.
  process.env.FLOW_VAR_baseUrl = api.url;

  return async () => {
    await api.close();
  };
}
