/** What a page's read returns to the test: the rows as JSON-safe values, or the error it threw. */
export interface ReadResult {
  /** The rows (`values: 'json'`), when the read succeeded. */
  rows?: unknown[];
  /** The error, when it failed. */
  error?: { name: string; code: string | undefined; message: string };
}

/** The page's entry point, set on `globalThis`. */
export type ReadUrl = (url: string, columns?: string[]) => Promise<ReadResult>;

/**
 * Runs a read and turns its outcome into a ReadResult (errors as plain data, for page.evaluate).
 * @param read - the read.
 * @returns rows or the error.
 */
export async function capture(read: () => Promise<unknown[]>): Promise<ReadResult> {
  try {
    return { rows: await read() };
  } catch (e) {
    const err = e as { name?: unknown; code?: unknown; message?: unknown };
    return { error: { name: String(err.name), code: typeof err.code === 'string' ? err.code : undefined, message: String(err.message) } };
  }
}
