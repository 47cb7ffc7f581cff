/**
 * Node.js conveniences (the `@parquetry/parquet-reader/node` subpath): a byte source over a local file.
 * @module
 */
import { open, type FileHandle } from 'node:fs/promises';
import { ParquetError } from '@parquetry/thrift-compact';
import type { ByteSource } from './source.js';

/** A {@link ByteSource} over an open file; call `close()` when done. */
export interface FileSource extends ByteSource {
  /** Closes the file handle (again: nothing). Reads after it fail with `SOURCE_ERROR`. */
  close(): Promise<void>;
}

/**
 * Opens a local file as a byte source (positional reads; nothing is read up front).
 * @param path - the file path.
 * @returns a {@link FileSource}.
 * @throws ParquetError `SOURCE_ERROR` when the file cannot be opened (its errno code, e.g. ENOENT or EISDIR, in the
 *   message, the Node error as `cause`); its reads throw `SOURCE_ERROR` (a failed read, or a read after `close()`),
 *   `SOURCE_CHANGED` (the file ended before the size it had when opened) and `OUT_OF_BOUNDS`.
 */
export async function fileSource(path: string): Promise<FileSource> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    throw failure(`cannot open ${path}`, e, undefined);
  }
  let size: number;
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw Object.assign(new Error(`not a regular file`), { code: 'ENOTFILE' });
    size = st.size;
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw failure(`cannot open ${path}`, e, undefined);
  }
  let closed = false;
  return {
    byteLength: size,
    async read(start, end) {
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= size)) {
        throw new ParquetError('OUT_OF_BOUNDS', `parquet-reader: read of bytes [${start}, ${end}) outside ${path} (${size} bytes)`, start);
      }
      if (closed) throw new ParquetError('SOURCE_ERROR', `parquet-reader: read of bytes [${start}, ${end}) of ${path} after close()`, start);
      const buf = new Uint8Array(end - start);
      let done = 0;
      while (done < buf.length) {
        let bytesRead: number;
        try {
          ({ bytesRead } = await fh.read(buf, done, buf.length - done, start + done));
        } catch (e) {
          throw failure(`reading bytes [${start}, ${end}) of ${path} failed`, e, start + done);
        }
        if (bytesRead === 0) {
          throw new ParquetError('SOURCE_CHANGED', `parquet-reader: ${path} ended at byte ${start + done}, it was ${size} bytes when opened (reading bytes [${start}, ${end}))`, start + done);
        }
        done += bytesRead;
      }
      return buf;
    },
    async close() {
      if (closed) return;
      closed = true;
      await fh.close();
    },
  };
}

/** A Node file-system error as SOURCE_ERROR, naming its errno code. */
function failure(what: string, e: unknown, offset: number | undefined): ParquetError {
  const err = e as { code?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? `${err.code}: ` : '';
  const msg = typeof err?.message === 'string' ? err.message : String(e);
  return new ParquetError('SOURCE_ERROR', `parquet-reader: ${what}: ${code === '' || msg.startsWith(err!.code as string) ? '' : code}${msg}`, offset, { cause: e });
}
