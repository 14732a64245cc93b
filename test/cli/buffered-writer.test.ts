// The run's output writer: batches, and lines formatted after the current turn of the event loop.
import { describe, expect, it, vi } from 'vitest';
import { bufferedWriter } from '../../src/cli/io.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('bufferedWriter', () => {
  it('formats a line given as a function after the current turn, in order with the plain lines', async () => {
    const writes: string[] = [];
    const formatted: string[] = [];
    const out = bufferedWriter((t) => writes.push(t), { ms: 10_000 });
    out.write('a\n');
    out.write(() => (formatted.push('b'), 'b\n'));
    // written after a pending function: it must wait for it, not overtake it
    out.write('c\n');
    out.write(() => (formatted.push('d'), 'd\n'));
    expect(formatted).toEqual([]);
    await nextTurn();
    expect(formatted).toEqual(['b', 'd']);
    // still batched: nothing is written before the flush
    expect(writes).toEqual([]);
    out.flush();
    expect(writes).toEqual(['a\nb\nc\nd\n']);
  });

  it('flush formats the lines still queued, so nothing is lost at the end of a run', () => {
    const writes: string[] = [];
    const out = bufferedWriter((t) => writes.push(t), { ms: 10_000 });
    out.write(() => 'x\n');
    out.write('y\n');
    out.flush();
    expect(writes).toEqual(['x\ny\n']);
  });

  it('a line that fails to format is replaced by a note, and the lines around it are kept', () => {
    const writes: string[] = [];
    const out = bufferedWriter((t) => writes.push(t), { ms: 10_000 });
    out.write('a\n');
    out.write(() => {
      throw new Error('bug');
    });
    out.write(() => 'c\n');
    out.flush();
    expect(writes).toEqual(['a\n(a line of output could not be formatted)\nc\n']);
  });

  // The clock is Vitest's: a test that waits on real 5 ms and 30 ms timers fails on a loaded machine,
  // where the 30 ms wait may end before the 5 ms timer, set later, has fired.
  it('writes a batch once it reaches the size limit, and after the time limit', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
    try {
      const writes: string[] = [];
      const out = bufferedWriter((t) => writes.push(t), { bytes: 4, ms: 5 });
      out.write('12');
      expect(writes).toEqual([]);
      out.write('34');
      expect(writes).toEqual(['1234']);
      out.write(() => '5');
      vi.advanceTimersByTime(0); // the next turn: the line is formatted, and waits for the time limit
      expect(writes).toEqual(['1234']);
      vi.advanceTimersByTime(4);
      expect(writes).toEqual(['1234']);
      vi.advanceTimersByTime(1);
      expect(writes).toEqual(['1234', '5']);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
