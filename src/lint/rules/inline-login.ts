// W_INLINE_LOGIN: an operation's own `auth` with strategy `simple` or `chain`. The run sends the
// login, but these strategies add nothing to a request: their credentials travel only through
// an actor's `inject.headers`, and an inline auth has no actor. So the operation goes out without
// a credential, silently. (An unknown strategy, also read as `simple`, is W_UNKNOWN_STRATEGY's.)
import type { Finding, Rule } from '../rule.js';

const LOGIN_STRATEGIES = new Set(['simple', 'chain']);

const inlineLoginRule: Rule = {
  id: 'inline-login',
  codes: ['W_INLINE_LOGIN'],
  *check({ project }): Generator<Finding> {
    for (const op of project.operations.values()) {
      const auth = op.auth;
      if (!auth || auth.rawStrategy !== auth.strategy || !LOGIN_STRATEGIES.has(auth.strategy)) continue;
      const remedy = op.actor
        ? `move the login to actor "${op.actor}", whose inject.headers carry the token`
        : 'give the operation an actor whose inject.headers carry the token';
      yield {
        code: 'W_INLINE_LOGIN',
        message: `an inline ${auth.strategy} auth logs in but adds no credential to this request; ${remedy}`,
        file: auth.file,
        yamlPath: [...auth.yamlPath, 'strategy'],
      };
    }
  },
};

export default inlineLoginRule;
