// Reading a file named by untrusted input (an API description, a `$ref` in one, an import
// input) without hanging or filling memory: opened without blocking, refused unless fstat says
// it is a regular file (a FIFO's open would wait for a writer for ever, /dev/zero never ends),
// and read no further than the cap even when the file grows while it is read.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { FlowError, type ErrorCode } from '../errors.js';
import { fileKind } from './file-kind.js';

export interface FileBound {
  /** the largest file read, in bytes */
  maxBytes: number;
  /** the code of the error for a file that cannot be read, is not a regular file, or is too large */
  code: ErrorCode;
  /** the file as messages name it (default: the path given) */
  shown?: string;
}

const CHUNK = 1 << 20;

/** The bytes of `file`, a regular file of at most `maxBytes`; a FlowError with `bound.code` otherwise. */
export async function readRegularFile(file: string, bound: FileBound): Promise<Buffer> {
  const shown = bound.shown ?? file;
  // `reason`, for a caller that words the error its own way: the errno (ENOENT), or what is wrong with the file
  const fail = (why: string, cause?: unknown) =>
    new FlowError(bound.code, `${shown}: ${why}`, { details: { file: shown, reason: (cause as NodeJS.ErrnoException | undefined)?.code ?? why }, cause });
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, err);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw fail(`is ${fileKind(stat)}, not a regular file: refused unread`);
    if (stat.size > bound.maxBytes) throw fail(tooLarge(stat.size, bound.maxBytes));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(CHUNK), 0, CHUNK, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      // the file grew after the stat: the cap holds all the same
      if (total > bound.maxBytes) throw fail(tooLarge(total, bound.maxBytes));
      chunks.push(bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof FlowError) throw err;
    throw fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, err);
  } finally {
    await handle.close();
  }
}

/** The text of `file` (UTF-8, a leading BOM dropped), bounded as readRegularFile. */
export async function readRegularText(file: string, bound: FileBound): Promise<string> {
  const text = (await readRegularFile(file, bound)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function tooLarge(size: number, max: number): string {
  return `is ${size > max ? `over ${mib(max)}` : mib(size)}, larger than the limit of ${mib(max)}: refused`;
}

function mib(bytes: number): string {
  return `${Math.round((bytes / (1 << 20)) * 10) / 10} MiB`;
}
