/**
 * The encoding registry: one entry per implemented `Encoding` number. Adding an encoding is one
 * module exporting a {@link ValueCodec} plus one line here (see the package README).
 *
 * @module
 */
import type { ByteWriter, Type } from '@parquetry/thrift-compact';
import { EncodingNames, TypeNames } from '@parquetry/thrift-compact';
import { alpCodec } from './alp.js';
import { byteStreamSplitCodec } from './byte-stream-split.js';
import { deltaBinaryPackedCodec } from './delta-binary-packed.js';
import { deltaByteArrayCodec } from './delta-byte-array.js';
import { deltaLengthByteArrayCodec } from './delta-length-byte-array.js';
import { plainDictionaryCodec, rleDictionaryCodec } from './dictionary.js';
import { encodingError } from './errors.js';
import { plainCodec } from './plain.js';
import { rleCodec } from './rle-hybrid.js';
import type { ColumnDescriptor, ColumnValues, DecodeResult, ValueCodec } from './types.js';

/** Every implemented value encoding, keyed by its parquet.thrift `Encoding` number. */
export const ENCODINGS: Readonly<Partial<Record<number, ValueCodec>>> = {
  [plainCodec.encoding]: plainCodec,
  [plainDictionaryCodec.encoding]: plainDictionaryCodec,
  [rleCodec.encoding]: rleCodec,
  [rleDictionaryCodec.encoding]: rleDictionaryCodec,
  [deltaBinaryPackedCodec.encoding]: deltaBinaryPackedCodec,
  [deltaLengthByteArrayCodec.encoding]: deltaLengthByteArrayCodec,
  [deltaByteArrayCodec.encoding]: deltaByteArrayCodec,
  [byteStreamSplitCodec.encoding]: byteStreamSplitCodec,
  [alpCodec.encoding]: alpCodec,
};

/**
 * Looks up the codec for an encoding and checks that it supports the physical type.
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param type - the physical type.
 * @returns the codec.
 * @throws ParquetError `ENCODING_UNSUPPORTED` when the encoding is unknown or not defined for the type.
 */
export function getCodec(encoding: number, type: Type): ValueCodec {
  const codec = ENCODINGS[encoding];
  if (codec === undefined) {
    throw encodingError('ENCODING_UNSUPPORTED', `encoding ${EncodingNames[encoding] ?? encoding} is not implemented`);
  }
  if (!codec.supports(type)) {
    throw encodingError('ENCODING_UNSUPPORTED', `encoding ${codec.name} is not defined for physical type ${TypeNames[type] ?? type}`);
  }
  return codec;
}

/**
 * Decodes `count` values of any registered encoding.
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param src - the encoded bytes (decompressed page values).
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param column - the column's physical type (and type length).
 * @param dictionary - the decoded dictionary page, for dictionary encodings.
 * @returns the values and the position after them.
 * @throws ParquetError `ENCODING_UNSUPPORTED`, and the codes of the encoding's decoder.
 */
export function decodeValues(encoding: number, src: Uint8Array, pos: number, end: number, count: number, column: ColumnDescriptor, dictionary?: ColumnValues): DecodeResult {
  return getCodec(encoding, column.type).decode(src, pos, end, count, column, dictionary);
}

/**
 * Encodes values with any registered encoding.
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param values - the values (for dictionary encodings, the indices).
 * @param column - the column's physical type.
 * @param w - receives the bytes.
 * @throws ParquetError `ENCODING_UNSUPPORTED`, and the codes of the encoding's encoder.
 */
export function encodeValues(encoding: number, values: ColumnValues, column: ColumnDescriptor, w: ByteWriter): void {
  getCodec(encoding, column.type).encode(values, column, w);
}
