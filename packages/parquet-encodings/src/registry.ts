/**
 * The encoding registry: one entry per implemented `Encoding` number. Adding an encoding is one
 * module exporting a {@link ValueDecoder} and its {@link ValueCodec}, plus one line in each table here (see the
 * package README). Decoding looks up {@link DECODERS} only, so a reader's bundle holds no encoder.
 *
 * @module
 */
import type { ByteWriter, Type } from '@parquetry/thrift-compact';
import { EncodingNames, TypeNames } from '@parquetry/thrift-compact';
import { alpCodec, alpDecoder } from './alp.js';
import { byteStreamSplitCodec, byteStreamSplitDecoder } from './byte-stream-split.js';
import { deltaBinaryPackedCodec, deltaBinaryPackedDecoder } from './delta-binary-packed.js';
import { deltaByteArrayCodec, deltaByteArrayDecoder } from './delta-byte-array.js';
import { deltaLengthByteArrayCodec, deltaLengthByteArrayDecoder } from './delta-length-byte-array.js';
import { plainDictionaryCodec, plainDictionaryDecoder, rleDictionaryCodec, rleDictionaryDecoder } from './dictionary.js';
import { encodingError } from './errors.js';
import { plainCodec, plainDecoder } from './plain.js';
import { rleCodec, rleDecoder } from './rle-hybrid.js';
import type { ColumnDescriptor, ColumnValues, DecodeResult, ValueCodec, ValueDecoder } from './types.js';

/** A table keyed by `Encoding` number (a function call, so that bundlers drop an unused table: see DECODERS). */
function byEncoding<C extends ValueDecoder>(list: readonly C[]): Readonly<Partial<Record<number, C>>> {
  const table: Partial<Record<number, C>> = {};
  for (const c of list) table[c.encoding] = c;
  return table;
}

/** Every implemented value encoding, keyed by its parquet.thrift `Encoding` number. */
export const ENCODINGS: Readonly<Partial<Record<number, ValueCodec>>> = /*#__PURE__*/ byEncoding<ValueCodec>([
  plainCodec,
  plainDictionaryCodec,
  rleCodec,
  rleDictionaryCodec,
  deltaBinaryPackedCodec,
  deltaLengthByteArrayCodec,
  deltaByteArrayCodec,
  byteStreamSplitCodec,
  alpCodec,
]);

/** The decoding half of every implemented value encoding, keyed by its parquet.thrift `Encoding` number. */
export const DECODERS: Readonly<Partial<Record<number, ValueDecoder>>> = /*#__PURE__*/ byEncoding<ValueDecoder>([
  plainDecoder,
  plainDictionaryDecoder,
  rleDecoder,
  rleDictionaryDecoder,
  deltaBinaryPackedDecoder,
  deltaLengthByteArrayDecoder,
  deltaByteArrayDecoder,
  byteStreamSplitDecoder,
  alpDecoder,
]);

function checked<C extends ValueDecoder>(codec: C | undefined, encoding: number, type: Type): C {
  if (codec === undefined) {
    throw encodingError('ENCODING_UNSUPPORTED', `encoding ${EncodingNames[encoding] ?? encoding} is not implemented`);
  }
  if (!codec.supports(type)) {
    throw encodingError('ENCODING_UNSUPPORTED', `encoding ${codec.name} is not defined for physical type ${TypeNames[type] ?? type}`);
  }
  return codec;
}

/**
 * Looks up the decoder for an encoding and checks that it supports the physical type (what readers use: no
 * encoder is reachable from it).
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param type - the physical type.
 * @returns the decoder.
 * @throws ParquetError `ENCODING_UNSUPPORTED` when the encoding is unknown or not defined for the type.
 */
export function getDecoder(encoding: number, type: Type): ValueDecoder {
  return checked(DECODERS[encoding], encoding, type);
}

/**
 * Looks up the codec for an encoding and checks that it supports the physical type.
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param type - the physical type.
 * @returns the codec.
 * @throws ParquetError `ENCODING_UNSUPPORTED` when the encoding is unknown or not defined for the type.
 */
export function getCodec(encoding: number, type: Type): ValueCodec {
  return checked(ENCODINGS[encoding], encoding, type);
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
  return getDecoder(encoding, column.type).decode(src, pos, end, count, column, dictionary);
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
