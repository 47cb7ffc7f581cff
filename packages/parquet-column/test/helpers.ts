/** Runs `f` and returns the ParquetError it throws (or fails when it does not throw one). */
export async function typedError(f: () => unknown): Promise<{ code: string; message: string; offset?: number | undefined }> {
  try {
    await f();
  } catch (e) {
    const err = e as { name?: string; code?: string; message: string; offset?: number };
    if (err?.name !== 'ParquetError' || typeof err.code !== 'string') throw e;
    return { code: err.code, message: err.message, offset: err.offset };
  }
  throw new Error('expected a ParquetError, nothing was thrown');
}
