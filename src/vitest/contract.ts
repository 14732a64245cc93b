// In the worker: the `openapi` option as the runner's responseCheck. The description is read
// and its validators compiled once per worker (src/runtime/contract caches by file and mtime).
import type { RunnerOptions } from '../runtime/types.js';
import type { SuiteOptions } from './options.js';

/** `{ responseCheck }` when a description is configured; E_CONTRACT_LOAD when it cannot be read. */
export async function contractOptions(options: SuiteOptions): Promise<Pick<RunnerOptions, 'responseCheck'>> {
  if (!options.openapi) return {};
  const { loadContract } = await import('../runtime/contract/index.js');
  const contract = await loadContract(options.openapi, options.contract ?? 'fail');
  return { responseCheck: contract.check };
}
