import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeThrift, encodeThrift, readFileMetaData, writeFileMetaData, type FileMetaData } from '@parquetry/thrift-compact';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const corpus = path.resolve(repo, '../shared/parquet-testing');
export const HAVE_CORPUS = fs.existsSync(corpus);
if (!HAVE_CORPUS) console.warn(`skipping corpus tests: ${corpus} not found`);

export const readBytes = (p: string): Uint8Array => new Uint8Array(fs.readFileSync(p));

/** The sample file the project ships (SNAPPY, flat and nested columns). */
export const SAMPLE = path.join(repo, 'fixtures/sample/sample.parquet');

/** Runs `f` and returns the ParquetError it throws (or fails when it does not throw one). */
export async function typedError(f: () => Promise<unknown>): Promise<{ code: string; message: string; offset?: number | undefined; cause?: unknown }> {
  try {
    await f();
  } catch (e) {
    const err = e as { name?: string; code?: string; message: string; offset?: number; cause?: unknown };
    if (err?.name !== 'ParquetError' || typeof err.code !== 'string') throw e;
    return { code: err.code, message: err.message, offset: err.offset, cause: err.cause };
  }
  throw new Error('expected a ParquetError, nothing was thrown');
}

/** `good` with its footer rewritten by `edit` (decoded, edited, encoded again in place of the old one). */
export function withFooter(good: Uint8Array, edit: (m: FileMetaData) => void): Uint8Array {
  const dv = new DataView(good.buffer, good.byteOffset, good.byteLength);
  const start = good.length - 8 - dv.getUint32(good.length - 8, true);
  const meta = decodeThrift(readFileMetaData, good, start, good.length - 8).value;
  edit(meta);
  const enc = encodeThrift(writeFileMetaData, meta);
  const out = new Uint8Array(start + enc.length + 8);
  out.set(good.subarray(0, start));
  out.set(enc, start);
  new DataView(out.buffer).setUint32(start + enc.length, enc.length, true);
  out.set(good.subarray(good.length - 4), start + enc.length + 4);
  return out;
}
