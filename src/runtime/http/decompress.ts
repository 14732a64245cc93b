// We never ask for compression, but some servers compress anyway (or the user sends
// Accept-Encoding). Decode gzip/deflate/br bodies so text(), json() and extraction work,
// with the same size limit on the decoded bytes (a small bomb must not fill memory).
import { createBrotliDecompress, createGunzip, createInflate, type Zlib } from 'node:zlib';
import type { Transform } from 'node:stream';

// A Map, not an object: the name comes from the server, and `__proto__` or `constructor`
// must not be taken for a decoder.
const DECODERS = new Map<string, () => Transform & Zlib>([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

export function isEncoded(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && DECODERS.has(contentEncoding.trim().toLowerCase());
}

export interface Decoded {
  body: Buffer;
  truncated: boolean;
}

/** Decode a complete compressed body, keeping at most `limit` decoded bytes; data not valid for its encoding is kept as received. */
export function decodeBody(raw: Buffer, contentEncoding: string, limit: number): Promise<Decoded> {
  const make = DECODERS.get(contentEncoding.trim().toLowerCase());
  if (!make) return Promise.resolve({ body: raw, truncated: false });
  const decoder = make();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (d: Decoded): void => {
      if (settled) return;
      settled = true;
      decoder.destroy();
      resolve(d);
    };
    decoder.on('data', (chunk: Buffer) => {
      const room = limit - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        settle({ body: Buffer.concat(chunks, size), truncated: true });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    decoder.on('end', () => settle({ body: Buffer.concat(chunks, size), truncated: false }));
    decoder.on('error', () => settle({ body: raw, truncated: false }));
    decoder.end(raw);
  });
}
