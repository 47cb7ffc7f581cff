import { isParquetError } from '@parquetry/thrift-compact';

/**
 * The ParquetError a promise rejects with (a test fails when it resolves or rejects with anything else).
 * @param p - the promise.
 * @returns the error's code, message and cause.
 */
export async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string; cause?: unknown }> {
  try {
    await p;
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return e as unknown as { code: string; message: string; cause?: unknown };
  }
  throw new Error('expected a rejection');
}
