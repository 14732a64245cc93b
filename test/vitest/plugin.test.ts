// The plugins on their own: the generated module (golden), the include patterns, and the
// watch triggers that map a changed resource file to its flow.yaml.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { flow, generateSuiteModule } from '../../src/vitest/index.js';
import { flowTestProjects } from '../../src/vitest/project-files.js';
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

async function transformFile(transform: { [k: string]: unknown }, id: string, code = 'version: 1') {
  const watched: string[] = [];
  const out = await hook(transform, 'transform').call({ addWatchFile: (f: string) => watched.push(f) }, code, id);
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

  test('a flowTest file re-runs with its flow.yaml when a file of their project changes', async () => {
    const { config, transform } = plugins();
    const [trigger] = hook(config, 'config')({}).test.watchTriggerPatterns;
    const root = path.join(SHOP, 'flow.yaml');
    const spec = path.join(SHOP, 'custom.spec.ts');
    const resource = path.join(SHOP, 'resources/orders.yaml');
    const code = readFileSync(spec, 'utf8');
    // the spec alone (its flow.yaml not collected): the project is tracked for it
    const { out, watched } = await transformFile(transform, spec, code);
    expect(out).toBeUndefined();
    expect(watched).toContain(resource);
    expect(trigger.testsToRun(resource, trigger.pattern.exec(resource))).toEqual([spec]);
    await transformFile(transform, root);
    expect(trigger.testsToRun(resource, trigger.pattern.exec(resource))).toEqual(expect.arrayContaining([root, spec]));
    // edited to use no project: it is dropped
    await transformFile(transform, spec, "import { test } from 'vitest';");
    expect(trigger.testsToRun(resource, trigger.pattern.exec(resource))).toEqual([root]);
  });

  test('provides the runner options to the test workers, for flowTest', () => {
    const provided: Record<string, unknown> = {};
    const { config } = plugins({ env: 'staging', vars: { tenant: 'acme' }, include: ['x/flow.yaml'] });
    hook(config, 'configureVitest')({ vitest: { config: { watch: false } }, project: { provide: (k: string, v: unknown) => (provided[k] = v) } });
    expect(provided).toEqual({ 'reqflow:options': { env: 'staging', vars: { tenant: 'acme' } } });
  });

  test('keeps flow.yaml suites out of the file cache of Vitest 4.1, which would skip the transform and its watch registration', () => {
    const { config } = plugins();
    let key: ((ctx: { id: string }) => unknown) | undefined;
    hook(
      config,
      'configureVitest',
    )({
      vitest: { config: { watch: true } },
      project: { provide: () => {} },
      experimental_defineCacheKeyGenerator: (fn: typeof key) => (key = fn),
    });
    expect(key!({ id: path.join(SHOP, 'flow.yaml') })).toBe(false);
    expect(key!({ id: `${path.join(SHOP, 'flow.yaml')}?v=1` })).toBe(false);
    expect(key!({ id: path.join(SHOP, 'custom.spec.ts') })).toBeUndefined();
  });

  test('vitest run (no watch) skips the dependency tracking', async () => {
    const { config, transform } = plugins();
    hook(config, 'configureVitest')({ vitest: { config: { watch: false } }, project: { provide: () => {} } });
    const { out, watched } = await transformFile(transform, path.join(SHOP, 'flow.yaml'));
    expect(out.code).toContain('defineFlowSuite');
    expect(watched).toEqual([]);
  });
});

describe('flow() options', () => {
  test('are checked when the config loads', () => {
    expect(() => flow({ concurrency: 0 })).toThrow('flow(): concurrency must be a whole number >= 1, got 0');
    expect(() => flow({ enviroment: 'x' } as never)).toThrow('flow(): unknown option "enviroment" (did you mean env?)');
    expect(() => flow({ env: 'staging', concurrency: 2 })).not.toThrow();
  });
});

describe('flowTestProjects: the projects a test file names', () => {
  const file = path.join(SHOP, 'tests/orders.test.ts');
  const root = path.join(SHOP, 'flow.yaml');
  const imports = "import { createFlowTest } from 'reqflow/vitest/suite';\n";

  test('a literal path, a URL, none (the nearest flow.yaml)', () => {
    expect(flowTestProjects(`${imports}const test = createFlowTest('../flow.yaml');`, file)).toEqual([root]);
    expect(flowTestProjects(`${imports}const test = createFlowTest("..", { env: 'x' });`, file)).toEqual([root]);
    expect(flowTestProjects(`${imports}const test = createFlowTest(new URL('../flow.yaml', import.meta.url));`, file)).toEqual([root]);
    expect(flowTestProjects(`${imports}const test = createFlowTest();`, file)).toEqual([root]);
    expect(flowTestProjects(`${imports}flowTest('x', async ({ flow }) => {});`, file)).toEqual([root]);
    expect(flowTestProjects(`${imports}const a = createFlowTest('../../inventory'), b = createFlowTest('../flow.yaml');`, file)).toEqual([
      path.join(FIXTURES, 'repo/inventory/flow.yaml'),
      root,
    ]);
  });

  test('nothing for a path it cannot read, or a file that does not import the suite module', () => {
    expect(flowTestProjects(`${imports}const test = createFlowTest(process.env.PROJECT);`, file)).toEqual([]);
    expect(flowTestProjects(`${imports}const test = createFlowTest(\`\${dir}/flow.yaml\`);`, file)).toEqual([]);
    expect(flowTestProjects("import { test } from 'vitest'; // flowTest", file)).toEqual([]);
  });
});
