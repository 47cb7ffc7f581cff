/**
 * Joins the two halves of a value encoding: a {@link ValueDecoder} (what readers register) and its encoder.
 * Each encoding module defines its decoder apart so that a reader's bundle holds no encoder.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encodings.md
 * @module
 */
import type { ByteWriter } from '@parquetry/thrift-compact';
import type { ColumnDescriptor, ColumnValues, ValueCodec, ValueDecoder } from './types.js';

/**
 * A codec from a decoder and an encode function (a new object; the decoder is not changed).
 * @param decoder - the encoding's decoder.
 * @param encode - encodes all values (for dictionary encodings: the indices) into a writer.
 * @returns the codec, both directions.
 */
export function withEncoder(decoder: ValueDecoder, encode: (values: ColumnValues, column: ColumnDescriptor, w: ByteWriter) => void): ValueCodec {
  return { encoding: decoder.encoding, name: decoder.name, supports: decoder.supports, decode: decoder.decode, encode };
}
