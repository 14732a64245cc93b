// Contract checks: every operation's response against an OpenAPI description. The runner
// calls the check after expect_status (RunnerOptions.responseCheck); a violation fails the
// operation with E_CONTRACT, or with `mode: 'warn'` becomes a warning on its result. A
// request the description does not have is reported as undocumented, in both modes.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FlowError, hasCode } from '../errors.js';
import { displayPath } from '../project/index.js';
import type { CheckedResponse, ResponseCheck, ResultWarning } from '../runner/index.js';
import { checkResponse, type ResponseVerdict, type Violation } from './check.js';
import { readDescription, type Description } from '../openapi/index.js';
import { Schemas } from './schemas.js';

export { checkResponse, type Violation } from './check.js';
export { Schemas, type SchemaValidator } from './schemas.js';

export type ContractMode = 'fail' | 'warn';

export interface Contract {
  description: Description;
  /** the description's schemas, compiled on first use */
  schemas: Schemas;
  /** the check to hand the runner */
  check: ResponseCheck;
}

// One description read and one set of validators per file (and version of it) per process:
// every suite a worker runs shares them.
const loaded = new Map<string, { mtimeMs: number; work: Promise<{ description: Description; schemas: Schemas }> }>();

/** Reads the description (once per file and modification) and returns the runner's check. E_CONTRACT_LOAD when it cannot. */
export async function loadContract(file: string, mode: ContractMode = 'fail', cwd: string = process.cwd()): Promise<Contract> {
  const abs = path.resolve(cwd, file);
  const mtimeMs = await stat(abs).then(
    (s) => s.mtimeMs,
    () => -1,
  );
  let entry = loaded.get(abs);
  if (!entry || entry.mtimeMs !== mtimeMs) {
    const made = { mtimeMs, work: readDescription(abs).then((description) => ({ description, schemas: new Schemas(description.doc, description.version) })) };
    loaded.set(abs, made);
    // a failed read is not kept; a newer entry made meanwhile (the file changed again) is
    made.work.catch(() => loaded.get(abs) === made && loaded.delete(abs));
    entry = made;
  }
  const { description, schemas } = await entry.work;
  const shown = displayPath(abs, cwd);
  const check: ResponseCheck = (c: CheckedResponse) => {
    let verdict: ResponseVerdict;
    try {
      verdict = checkResponse(description, schemas, c.method, c.url, c.response, (value) => c.redact(value));
    } catch (err) {
      // past the check's budget: not a violation (nothing was found), so in warn mode not a failure either
      if (mode === 'warn' && hasCode(err) && err.code === 'E_CONTRACT_LIMIT') return [{ code: 'W_CONTRACT_LIMIT', message: `${err.message} (${shown})` }];
      throw err;
    }
    return outcome(verdict, c, shown, mode);
  };
  return { description, schemas, check };
}

function outcome(verdict: ResponseVerdict, c: CheckedResponse, file: string, mode: ContractMode): ResultWarning[] | undefined {
  if (verdict.undocumented) return [{ code: 'W_CONTRACT_UNDOCUMENTED', message: `${verdict.undocumented} (${file}): its response is not checked` }];
  if (!verdict.violations.length) return undefined;
  const message = violationMessage(verdict, c.response.status, file);
  if (mode === 'warn') return [{ code: 'W_CONTRACT', message }];
  throw new FlowError('E_CONTRACT', message, { details: { operation: verdict.operation, violations: verdict.violations } });
}

/** `the 200 response of GET /pets/{petId} breaks openapi.yaml:` and one line per violation. */
function violationMessage(verdict: ResponseVerdict, status: number, file: string): string {
  const n = verdict.violations.length;
  const head = `the ${status} response of ${verdict.operation} breaks ${file} (${n} violation${n === 1 ? '' : 's'})`;
  return [head, ...verdict.violations.map((v) => `    ✗ ${violationLine(v)}`)].join('\n');
}

export function violationLine(v: Violation): string {
  const where = v.pointer === undefined ? '' : `${v.pointer === '' ? '(body)' : v.pointer}: `;
  return `${where}expected ${v.expected}, got ${v.actual}`;
}
