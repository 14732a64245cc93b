// A refused or failed write into the project (src/project/write.ts, E_WRITE_*) is reported as
// its code and sentence, exit 1; the old file is whole. Anything else is not ours to format.
import { hasCode } from '../errors.js';
import { EXIT, type CliIO } from './io.js';

export async function reportingWriteErrors<T>(command: string, io: CliIO, write: () => Promise<T>): Promise<T | number> {
  try {
    return await write();
  } catch (err) {
    if (!hasCode(err) || !err.code.startsWith('E_WRITE_')) throw err;
    io.stderr(`flow ${command}: ${err.code} ${err.message}\n`);
    return EXIT.failed;
  }
}
