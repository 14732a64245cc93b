// The plugins on their own: the generated module (golden), the include patterns, and the
// watch triggers that map a changed resource file to its flow.yaml.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { flow, generateSuiteModule } from '../../src/vitest/index.js';
import { FIXTURES } from './helpers.js';

const SHOP = path.join(FIXTURES, 'repo/shop');

type Hook = (...args: any[]) => any;
function hook(plugin: { [k: string]: unknown }, name: string): Hook {
  const h = plugin[name] as Hook | { handler: Hook };
  return typeof h === 'function' ? h : h.handler;
}

function plugins(options = {}) {
  const [config, transform] = flow(options) as unknown as Array<{ name: string; [k: string]: unknown }>;
  return { config, transform };
}

async function transformFile(transform: { [k: string]: unknown }, id: string) {
  const watched: string[] = [];
  const out = await hook(transform, 'transform').call({ addWatchFile: (f: string) => watched.push(f) }, 'version: 1', id);
  return { out, watched };
}

describe('generated module', () => {
  test('is a thin module handing the plan to defineFlowSuite (golden)', () => {
    const golden = readFileSync(path.join(FIXTURES, 'golden/generated-module.js'), 'utf8');
    const code = generateSuiteModule({ root: '/srv/api/flow.yaml', options: { env: 'staging', vars: { baseUrl: 'http://127.0.0.1:9' }, concurrency: 2 } });
    expect(code).toBe(golden);
  });

  test('the transform turns a flow.yaml (with a query) into it and leaves other files alone', async () => {
    const { transform } = plugins({ env: 'staging', include: ['apis/**/flow.yaml'] });
    expect(transform.name).toBe('reqflow:transform');
    expect(transform.enforce).toBe('pre');
    const file = path.join(SHOP, 'flow.yaml');
    const { out } = await transformFile(transform, `${file}?v=123`);
    expect(out.code).toBe(generateSuiteModule({ root: file, options: { env: 'staging' } }));
    expect(out.code).not.toContain('include');
    expect((await transformFile(transform, path.join(SHOP, 'resources/orders.yaml'))).out).toBeUndefined();
    expect((await transformFile(transform, path.join(SHOP, 'custom.spec.ts'))).out).toBeUndefined();
  });
});

describe('reqflow:config', () => {
  test('adds flow.yaml to the user include patterns, or to the defaults when there are none', () => {
    const { config } = plugins();
    expect(config.name).toBe('reqflow:config');
    const withUser = hook(config, 'config')({ test: { include: ['src/**/*.test.ts'] } });
    // Vite concatenates arrays: the plugin returns only what it adds.
    expect(withUser.test.include).toEqual(['**/flow.yaml']);
    const withoutUser = hook(config, 'config')({});
    expect(withoutUser.test.include).toContain('**/flow.yaml');
    expect(withoutUser.test.include).toContain('**/*.{test,spec}.?(c|m)[jt]s?(x)');
    const custom = hook(plugins({ include: ['apis/*/flow.yaml'] }).config, 'config')({ test: { include: [] } });
    expect(custom.test.include).toEqual(['apis/*/flow.yaml']);
  });

  test('a file the project reads triggers its flow.yaml; other files are left to Vitest', async () => {
    const { config, transform } = plugins();
    const [trigger] = hook(config, 'config')({}).test.watchTriggerPatterns;
    const root = path.join(SHOP, 'flow.yaml');
    const resource = path.join(SHOP, 'resources/orders.yaml');
    // Before the suite was transformed nothing is known.
    expect(trigger.testsToRun(resource, trigger.pattern.exec(resource))).toBeUndefined();
    const { watched } = await transformFile(transform, root);
    expect(watched).toEqual(expect.arrayContaining([root, resource, path.join(SHOP, 'actors/clerk.yaml')]));
    expect(trigger.testsToRun(resource, trigger.pattern.exec(resource))).toEqual([root]);
    // a new file where an import glob looks: the suite re-runs (it now loads one more file)
    const added = path.join(SHOP, 'resources/refunds.yaml');
    expect(trigger.testsToRun(added, trigger.pattern.exec(added))).toEqual([root]);
    for (const other of [path.join(SHOP, 'custom.spec.ts'), path.join(SHOP, 'resources/notes.txt'), path.join(FIXTURES, 'server.ts')]) {
      expect(trigger.testsToRun(other, trigger.pattern.exec(other))).toBeUndefined();
    }
  });

  test('vitest run (no watch) skips the dependency tracking', async () => {
    const { config, transform } = plugins();
    hook(config, 'configureVitest')({ vitest: { config: { watch: false } } });
    const { out, watched } = await transformFile(transform, path.join(SHOP, 'flow.yaml'));
    expect(out.code).toContain('defineFlowSuite');
    expect(watched).toEqual([]);
  });
});
