/**
 * Appending row groups to an existing file: the old row groups stay where they are, new ones are written where the
 * old footer began, and a new footer listing all of them is written last. Only files with a plaintext footer
 * (magic `PAR1`) can be appended to.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md ("File format": the footer is the last part
 * of the file; row groups are located through it, so bytes after the last chunk may be replaced).
 * @module
 */
import { ParquetError, decodeThrift, readFileMetaData, type FileMetaData } from '@parquetry/thrift-compact';

/** Where and what to append to: the existing footer and the end of the existing data (where the footer began). */
export interface AppendTarget {
  /** The existing file's footer. */
  metadata: FileMetaData;
  /** Byte offset where the existing footer starts: new row groups are written from here. */
  dataEnd: number;
}

/**
 * Reads the footer of an existing file to append to.
 * @param tail - the last bytes of the file (at least its footer, its length and the magic; the whole file is fine).
 * @param fileLength - the file's total length (default: `tail.length`, i.e. `tail` is the whole file).
 * @returns the append target.
 * @throws ParquetError `NOT_PARQUET` for a missing magic, `ENCRYPTED_FOOTER` for an encrypted footer,
 *   `CORRUPT_FOOTER` for a footer that does not decode or lies outside the file, `NEED_MORE_DATA` when `tail` is
 *   shorter than the footer.
 */
export function appendTarget(tail: Uint8Array, fileLength: number = tail.length): AppendTarget {
  const n = tail.length;
  if (n < 8 || fileLength < 12) throw new ParquetError('NOT_PARQUET', `parquet-writer: cannot append: ${fileLength} bytes are too short for a Parquet file`);
  const magic = String.fromCharCode(tail[n - 4]!, tail[n - 3]!, tail[n - 2]!, tail[n - 1]!);
  if (magic === 'PARE') throw new ParquetError('ENCRYPTED_FOOTER', 'parquet-writer: cannot append to a file with an encrypted footer');
  if (magic !== 'PAR1') throw new ParquetError('NOT_PARQUET', `parquet-writer: cannot append: the file ends with '${magic}', not the Parquet magic 'PAR1'`);
  const len = (tail[n - 8]! | (tail[n - 7]! << 8) | (tail[n - 6]! << 16) | (tail[n - 5]! << 24)) >>> 0;
  const dataEnd = fileLength - 8 - len;
  if (dataEnd < 4) throw new ParquetError('CORRUPT_FOOTER', `parquet-writer: cannot append: footer length ${len} exceeds the file (${fileLength} bytes)`);
  if (len + 8 > n) throw new ParquetError('NEED_MORE_DATA', `parquet-writer: cannot append: the footer needs the last ${len + 8} bytes, ${n} given`);
  let metadata: FileMetaData;
  try {
    metadata = decodeThrift(readFileMetaData, tail, n - 8 - len, n - 8).value;
  } catch (e) {
    throw new ParquetError('CORRUPT_FOOTER', `parquet-writer: cannot append: the footer does not decode: ${(e as Error).message}`, undefined, { cause: e });
  }
  if (metadata.encryption_algorithm !== undefined) throw new ParquetError('ENCRYPTED_FOOTER', 'parquet-writer: cannot append to an encrypted file (signed plaintext footer)');
  return { metadata, dataEnd };
}
