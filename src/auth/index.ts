// One module per strategy (docs/format.md#authentication), behind the interface in types.ts.
import type { AuthStrategyName } from '../project/index.js';
import { apiKey } from './api_key.js';
import { awsSigV4 } from './aws_sigv4.js';
import { basic } from './basic.js';
import { bearer } from './bearer.js';
import { chain } from './chain.js';
import { jwt } from './jwt.js';
import { mtls } from './mtls.js';
import { oauth1 } from './oauth1.js';
import { oauth2ClientCredentials, oauth2Password } from './oauth2.js';
import { simple } from './simple.js';
import type { AuthStrategy } from './types.js';

const STRATEGIES: Record<AuthStrategyName, AuthStrategy> = {
  simple,
  chain,
  basic,
  api_key: apiKey,
  bearer,
  oauth2_client_credentials: oauth2ClientCredentials,
  oauth2_password: oauth2Password,
  oauth1,
  aws_sigv4: awsSigV4,
  jwt,
  mtls,
};

/** The strategy of an `auth.strategy` (the loader already turned unknown names into `simple`). */
export function strategyFor(name: AuthStrategyName): AuthStrategy {
  return STRATEGIES[name] ?? simple;
}

export type { AuthContext, AuthStrategy, Session } from './types.js';
