// The V8 settings of `flow run` and the Vitest suite: only on the V8 versions checked to have
// each flag (an unknown flag would print an error line on every command).
import { describe, expect, test } from 'vitest';
import { v8RunFlags } from '../../src/runtime/v8-tuning.js';

describe('v8RunFlags', () => {
  test('Node 20 (V8 11) also doubles the interrupt budget; Node 22 and 24 (V8 12, 13) do not', () => {
    expect(v8RunFlags('11.3.244.8-node.33')).toEqual(['--liftoff-only', '--max-inlined-bytecode-size-cumulative=250', '--interrupt-budget=135168']);
    expect(v8RunFlags('12.4.254.21-node.33')).toEqual(['--liftoff-only', '--max-inlined-bytecode-size-cumulative=250']);
    expect(v8RunFlags('13.6.233.10-node.27')).toEqual(['--liftoff-only', '--max-inlined-bytecode-size-cumulative=250']);
  });

  test('an unchecked V8 gets none', () => {
    expect(v8RunFlags('10.2.154.26-node.26')).toEqual([]);
    expect(v8RunFlags('14.1.146.11-node.14')).toEqual([]);
  });
});
