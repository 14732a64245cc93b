// A refused or failed write into the project (src/project/write.ts, E_WRITE_*) is reported as
// its code and sentence, exit 1; the old file is whole. Anything else is not ours to format.
import path from 'node:path';
import { hasCode } from '../errors.js';
import { writeOutputFile } from '../project/index.js';
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

/**
 * A file the user named (`--plan`, `--report`), relative to the working folder, written
 * atomically; undefined when written, else the exit code once the failure is said.
 */
export async function writeNamedFile(command: string, io: CliIO, file: string, text: string): Promise<number | undefined> {
  const failed = await reportingWriteErrors(command, io, async () => writeOutputFile(path.resolve(io.cwd, file), text));
  return typeof failed === 'number' ? failed : undefined;
}
