/**
 * Node.js conveniences (the `@parquetry/parquet-reader/node` subpath): a byte source over a local file.
 * @module
 */
import { open } from 'node:fs/promises';
import { ParquetError } from '@parquetry/thrift-compact';
import type { ByteSource } from './source.js';

/** A {@link ByteSource} over an open file; call `close()` when done. */
export interface FileSource extends ByteSource {
  /** Closes the file handle. */
  close(): Promise<void>;
}

/**
 * Opens a local file as a byte source (positional reads; nothing is read up front).
 * @param path - the file path.
 * @returns a {@link FileSource}.
 */
export async function fileSource(path: string): Promise<FileSource> {
  const fh = await open(path, 'r');
  const { size } = await fh.stat();
  return {
    byteLength: size,
    async read(start, end) {
      if (!(start >= 0 && start <= end && end <= size)) {
        throw new ParquetError('OUT_OF_BOUNDS', `parquet-reader: read of bytes [${start}, ${end}) outside ${path} (${size} bytes)`, start);
      }
      const buf = new Uint8Array(end - start);
      let done = 0;
      while (done < buf.length) {
        const { bytesRead } = await fh.read(buf, done, buf.length - done, start + done);
        if (bytesRead === 0) throw new ParquetError('EOF', `parquet-reader: ${path} ended at byte ${start + done}, expected ${end}`, start + done);
        done += bytesRead;
      }
      return buf;
    },
    close: () => fh.close(),
  };
}
