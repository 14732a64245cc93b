// The run's output writer: batches, and lines formatted after the current turn of the event loop.
import { describe, expect, it } from 'vitest';
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

  it('writes a batch once it reaches the size limit, and after the time limit', async () => {
    const writes: string[] = [];
    const out = bufferedWriter((t) => writes.push(t), { bytes: 4, ms: 5 });
    out.write('12');
    out.write('34');
    expect(writes).toEqual(['1234']);
    out.write(() => '5');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(writes).toEqual(['1234', '5']);
  });
});
