/**
 * The Parquet metadata model (generated from parquet.thrift) plus whole-struct helpers.
 * @module
 */
import { ByteReader } from '../cursor.js';
import { CompactReader } from '../compact-reader.js';
import { CompactWriter } from '../compact-writer.js';

export * from './gen/index.js';

/** The result of {@link decodeThrift}. */
export interface Decoded<T> {
  /** The decoded struct. */
  value: T;
  /** Position in the input just after the struct. */
  end: number;
}

/**
 * Decodes one Thrift struct from bytes.
 * @param read - a generated reader such as `readFileMetaData`.
 * @param bytes - input bytes.
 * @param pos - where the struct starts (default 0).
 * @param end - exclusive end of the readable region (default `bytes.length`).
 * @param baseOffset - file offset of `bytes[0]`, so error offsets refer to the file.
 * @returns the value and the position after it.
 * @throws ParquetError on malformed input (codes `EOF`, `THRIFT_*`, `VARINT_TOO_LONG`, `INT64_NOT_SAFE`).
 */
export function decodeThrift<T>(read: (r: CompactReader) => T, bytes: Uint8Array, pos = 0, end = bytes.length, baseOffset = 0): Decoded<T> {
  const cur = new ByteReader(bytes, pos, end, baseOffset);
  const value = read(new CompactReader(cur));
  return { value, end: cur.pos };
}

/**
 * Encodes one Thrift struct to bytes.
 * @param write - a generated writer such as `writeFileMetaData`.
 * @param value - the struct to encode.
 * @returns the encoded bytes.
 * @throws ParquetError `THRIFT_REQUIRED_FIELD` when a required field is undefined.
 */
export function encodeThrift<T>(write: (w: CompactWriter, v: T) => void, value: T): Uint8Array {
  const w = new CompactWriter();
  write(w, value);
  return w.finish();
}
