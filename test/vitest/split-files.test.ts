// Where a part's file lives and what it maps back to; the JUnit classname of a part's tests.
import { describe, expect, test } from 'vitest';
import { flow } from '../../src/vitest/index.js';
import { junitClassname, moreWorkers, SPLIT_WORKERS } from '../../src/vitest/split-config.js';
import { partFile, partFileNames, partOf } from '../../src/vitest/split-files.js';

describe('part files', () => {
  test('hold the project path, and map back to the project and the part', () => {
    const file = partFile('/repo', '/repo/apis/shop/flow.yaml', 'order.yaml')!;
    expect(file).toBe('/repo/.reqflow/split/apis/shop/flow.yaml/order.yaml');
    expect(partOf(file)).toEqual({ root: '/repo/apis/shop/flow.yaml', fileName: 'order.yaml' });
    const atRoot = partFile('/repo', '/repo/flow.yaml', 'order.yaml')!;
    expect(atRoot).toBe('/repo/.reqflow/split/flow.yaml/order.yaml');
    expect(partOf(atRoot)).toEqual({ root: '/repo/flow.yaml', fileName: 'order.yaml' });
  });

  test('a project outside the Vitest dir is not split; other files are not parts', () => {
    expect(partFile('/repo/web', '/repo/api/flow.yaml', 'order.yaml')).toBeUndefined();
    expect(partOf('/repo/apis/shop/flow.yaml')).toBeUndefined();
    expect(partOf('/repo/.reqflow/split/apis/shop/order.yaml')).toBeUndefined();
  });

  test('a resource id that is no plain file name becomes a stable hash', () => {
    const names = partFileNames(['order_item-2.v1', '../etc/passwd', '.hidden']);
    expect(names.get('order_item-2.v1')).toBe('order_item-2.v1.yaml');
    expect(names.get('../etc/passwd')).toMatch(/^part~[0-9a-f]{16}\.yaml$/);
    expect(partFileNames(['../etc/passwd']).get('../etc/passwd')).toBe(names.get('../etc/passwd'));
    expect(names.get('.hidden')).not.toBe('.hidden.yaml');
  });

  test('names are unique, also where case does not count: no plain id can take a hashed name', () => {
    const long = 'x'.repeat(101);
    const hashed = partFileNames([long])
      .get(long)!
      .replace(/\.yaml$/, '');
    // the plain id spelt as the long id's file name: `~` keeps it a hash itself
    const names = partFileNames([long, hashed, 'Pets', 'pets', 'part-0c1e4f2a']);
    expect(new Set([...names.values()].map((n) => n.toLowerCase())).size).toBe(5);
    expect(names.get('Pets')).toBe('Pets.yaml');
    expect(names.get('pets')).toMatch(/^part~[0-9a-f]{16}\.yaml$/);
    expect(names.get('part-0c1e4f2a')).toBe('part-0c1e4f2a.yaml');
  });

  test('the same part twice is an internal error, never one file for both', () => {
    expect(() => partFileNames(['a', 'a'])).toThrow(expect.objectContaining({ code: 'E_INTERNAL' }));
  });
});

describe('junitClassname', () => {
  test('gives a part the project as its classname, unless the config names one', () => {
    const reporters: unknown[] = [
      ['junit', {}],
      ['junit', { classname: 'mine' }],
      ['default', {}],
    ];
    junitClassname({ root: '/repo', reporters } as never);
    const [[, set], [, kept]] = reporters as Array<[string, { classnameTemplate?: (v: { filepath: string }) => string; classname?: string }]>;
    expect(set.classnameTemplate!({ filepath: '/repo/.reqflow/split/apis/shop/flow.yaml/order.yaml' })).toBe('apis/shop/flow.yaml');
    expect(set.classnameTemplate!({ filepath: '/repo/test/a.test.ts' })).toBe('test/a.test.ts');
    expect(kept).toEqual({ classname: 'mine' });
  });
});

describe('moreWorkers: a split project runs in SPLIT_WORKERS workers unless the user chose', () => {
  const after = (config: Parameters<typeof moreWorkers>[0]) => (moreWorkers(config), config.maxWorkers);

  test('Vitest 4: an unchosen maxWorkers is undefined', () => {
    expect(SPLIT_WORKERS).toBeGreaterThanOrEqual(4);
    expect(after({})).toBe(SPLIT_WORKERS);
    expect(after({ maxWorkers: 2 })).toBe(2);
    // --no-file-parallelism: Vitest has set maxWorkers to 1
    expect(after({ maxWorkers: 1, fileParallelism: false })).toBe(1);
  });

  test('Vitest 5: maxWorkers is always filled in, providedOptions says whether the user chose it', () => {
    expect(after({ maxWorkers: 1, providedOptions: { maxWorkers: false } })).toBe(SPLIT_WORKERS);
    expect(after({ maxWorkers: 64, providedOptions: { maxWorkers: false } })).toBe(64);
    expect(after({ maxWorkers: 1, providedOptions: { maxWorkers: true } })).toBe(1);
    expect(after({ maxWorkers: 1, fileParallelism: false, providedOptions: { maxWorkers: false } })).toBe(1);
  });
});

test('flow({ split }) takes true or false', () => {
  expect(() => flow({ split: 'yes' } as never)).toThrow('flow(): split must be true or false, got "yes"');
  expect(() => flow({ split: false })).not.toThrow();
});
