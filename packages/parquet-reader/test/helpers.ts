import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
