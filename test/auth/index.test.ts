// The dispatch table: every strategy of spec 5 has a module.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import { AUTH_STRATEGIES, type AuthStrategyName } from '../../src/project/types.js';
import { makeAuthContext, rejection } from './context.js';

describe('strategyFor', () => {
  test.each([...AUTH_STRATEGIES])('%s has a strategy of that kind', (name) => {
    const s = strategyFor(name);
    expect(s.kind).toBe(name);
    expect(typeof s.login).toBe('function');
    expect(typeof s.apply).toBe('function');
  });

  test.each(['oauth1', 'aws_sigv4', 'mtls'] as AuthStrategyName[])('%s with no keys: E_AUTH at login naming the missing key, no request', async (name) => {
    const t = makeAuthContext({ baseUrl: 'http://127.0.0.1:9' });
    const config = { strategy: name, rawStrategy: name, options: {}, file: 'x', yamlPath: [], loc: { file: 'x', line: 1, col: 1 } };
    const err = await rejection(strategyFor(name).login(config, t.ctx));
    expect(err.code).toBe('E_AUTH');
    expect(err.message).toMatch(new RegExp(`^${name} auth of inline auth has no \`(consumer_key|access_key|cert_path)\`$`));
    expect(t.purposes).toEqual([]);
  });
});

describe('docs/format.md on the strategies', () => {
  test('calls none of those with its own module "not supported": each one signs or sends its credential', () => {
    const doc = readFileSync(new URL('../../docs/format.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Authentication'), doc.indexOf('\n## Provenance'));
    for (const name of AUTH_STRATEGIES) {
      // a module of its own, not the fallback to simple
      if (name !== 'simple') expect(strategyFor(name), name).not.toBe(strategyFor('simple'));
      const sentences = section.split(/(?<=\.)\s/).filter((s) => s.includes(`\`${name}\``));
      for (const s of sentences) expect(s, name).not.toMatch(/not supported/);
    }
  });
});
