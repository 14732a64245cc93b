// The deadline lists behind every request's time limit: one timer per limit, not per request.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DeadlineList, Deadlines } from '../../../src/runtime/http/deadlines.js';

describe('DeadlineList', () => {
  it('fires what was not cancelled, oldest first, once', async () => {
    const list = new DeadlineList(30);
    const fired: string[] = [];
    list.add(() => fired.push('a'));
    const b = list.add(() => fired.push('b'));
    await sleep(5);
    list.add(() => fired.push('c'));
    list.cancel(b);
    expect(fired).toEqual([]);
    await sleep(80);
    expect(fired).toEqual(['a', 'c']);
    await sleep(40);
    expect(fired).toEqual(['a', 'c']);
  });

  it('gives a request added after a quiet spell its whole time limit', async () => {
    const list = new DeadlineList(40);
    list.cancel(list.add(() => {})); // the timer stays armed for this one's deadline
    await sleep(20);
    let fired = 0;
    const started = performance.now();
    list.add(() => (fired = performance.now() - started));
    await sleep(30); // past the first deadline, before the second
    expect(fired).toBe(0);
    await sleep(60);
    expect(fired).toBeGreaterThanOrEqual(39);
  });

  it('lets a fired deadline add another (a retry after a timeout)', async () => {
    const list = new DeadlineList(15);
    const fired: number[] = [];
    list.add(() => {
      fired.push(1);
      list.add(() => fired.push(2));
    });
    await sleep(80);
    expect(fired).toEqual([1, 2]);
  });

  it('keeps one list per time limit', () => {
    const d = new Deadlines();
    expect(d.list(1000)).toBe(d.list(1000));
    expect(d.list(1000)).not.toBe(d.list(2000));
  });

  it('does not keep the process alive once nothing is in flight', () => {
    const module = path.resolve(import.meta.dirname, '../../../dist/runtime/http/deadlines.js');
    const script = `const { DeadlineList } = await import(${JSON.stringify(module)}); const l = new DeadlineList(60000); l.cancel(l.add(() => {})); console.log('done');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20000 });
    expect(r.signal).toBeNull(); // not killed by the 20 s limit: it exited on its own
    expect(r.stdout.trim()).toBe('done');
  });
});
