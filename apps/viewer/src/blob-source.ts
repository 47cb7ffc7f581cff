/**
 * A {@link ByteSource} over a `Blob` (a `File` from the file picker or a drop): each read slices the blob, so a large
 * local file is never read whole.
 * @module
 */
import type { ByteSource } from '@parquetry/parquet-reader';
import { ParquetError } from '@parquetry/thrift-compact';

/**
 * A byte source reading slices of a blob.
 * @param blob - the file.
 * @returns the source.
 * @throws ParquetError `OUT_OF_BOUNDS` from its reads for a range outside the blob, `READ_FAILED` when the browser
 *   cannot read the file (it was removed or changed since it was picked).
 */
export function blobSource(blob: Blob): ByteSource {
  const size = blob.size;
  return {
    byteLength: size,
    async read(start: number, end: number): Promise<Uint8Array> {
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end >= start && end <= size)) {
        throw new ParquetError('OUT_OF_BOUNDS', `viewer: read [${start}, ${end}) outside the ${size}-byte file`, start);
      }
      try {
        return new Uint8Array(await blob.slice(start, end).arrayBuffer());
      } catch (e) {
        throw new ParquetError('READ_FAILED', `viewer: cannot read bytes [${start}, ${end}) of the local file: ${(e as Error).message}`, start, { cause: e });
      }
    },
  };
}
