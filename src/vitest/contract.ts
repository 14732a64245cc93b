// In the worker: the `openapi` option as the runner's responseCheck. The description is read
// and its validators compiled once per worker (src/contract caches by file and mtime).
import type { RunnerOptions } from '../runner/index.js';
import { FlowTestError } from './failure.js';
import type { SuiteOptions } from './options.js';

/** `{ responseCheck }` when a description is configured; E_CONTRACT_LOAD when it cannot be read. */
export async function contractOptions(options: SuiteOptions): Promise<Pick<RunnerOptions, 'responseCheck'>> {
  if (!options.openapi) return {};
  const { loadContract } = await import('../contract/index.js');
  try {
    const contract = await loadContract(options.openapi, options.contract ?? 'fail');
    return { responseCheck: contract.check };
  } catch (err) {
    // the coded message, located at the description (not a stack through the ref parser)
    const code = (err as { code?: string }).code ?? 'E_CONTRACT_LOAD';
    throw new FlowTestError(code, `${code}: ${(err as Error).message}`, { file: options.openapi, line: 1, col: 1 }, 'openapi');
  }
}
