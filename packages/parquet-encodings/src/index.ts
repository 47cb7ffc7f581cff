/**
 * `@parquetry/parquet-encodings` — every Parquet value encoding (PLAIN, RLE hybrid, dictionary,
 * DELTA_*, BYTE_STREAM_SPLIT, ALP), decode and encode, on columnar typed arrays.
 *
 * - Registry: {@link ENCODINGS}, {@link getCodec}, {@link decodeValues}, {@link encodeValues}; for readers the
 *   decoding halves alone: {@link DECODERS}, {@link getDecoder} (a reader's bundle then holds no encoder).
 * - Writing: {@link createValueEncoder} (streaming {@link ValueEncoder} per encoding) and {@link DictionaryEncoder}.
 * - Low-level kernels per encoding (`decodeRleHybrid`, `decodePlainInt32`, …) that read from
 *   `(src, pos, end)` and return the next position or the values.
 *
 * @packageDocumentation
 */
export type { ByteArrays, ColumnDescriptor, ColumnValues, DecodeResult, FixedLenByteArrays, ValueCodec, ValueDecoder, ValuesByType } from './types.js';
export { ENCODINGS, DECODERS, getCodec, getDecoder, decodeValues, encodeValues } from './registry.js';
export { withEncoder } from './value-codec.js';
export { createValueEncoder, type ValueEncoder } from './value-encoder.js';
export { DictionaryEncoder } from './dictionary-encoder.js';
export { decodeRleHybrid, decodeRleHybridPrefixed, rleHybridAllEqual, encodeRleHybrid, encodeRleHybridPrefixed, bitWidthOf, rleCodec, rleDecoder } from './rle-hybrid.js';
export { decodeBitPacked, encodeBitPacked } from './bit-packed.js';
export {
  decodePlain,
  encodePlain,
  decodePlainBoolean,
  encodePlainBoolean,
  decodePlainInt32,
  decodePlainInt64,
  decodePlainFloat,
  decodePlainDouble,
  decodePlainFixed,
  decodePlainByteArray,
  decodePlainByteArrayInto,
  encodePlainByteArray,
  plainCodec,
  plainDecoder,
} from './plain.js';
export {
  decodeDictionaryPage,
  encodeDictionaryPage,
  decodeDictionaryIndices,
  encodeDictionaryIndices,
  applyDictionary,
  decodeDictionaryValues,
  buildDictionary,
  valueCount,
  plainDictionaryCodec,
  plainDictionaryDecoder,
  rleDictionaryCodec,
  rleDictionaryDecoder,
} from './dictionary.js';
export type { NumericDictionary } from './dictionary.js';
export {
  readDeltaHeader,
  decodeDeltaBinaryPackedInt32,
  decodeDeltaBinaryPackedInt64,
  encodeDeltaBinaryPackedInt32,
  encodeDeltaBinaryPackedInt64,
  deltaBinaryPackedCodec,
  deltaBinaryPackedDecoder,
  type DeltaHeader,
} from './delta-binary-packed.js';
export { decodeDeltaLengthByteArray, encodeDeltaLengthByteArray, deltaLengthByteArrayCodec, deltaLengthByteArrayDecoder } from './delta-length-byte-array.js';
export { decodeDeltaByteArray, encodeDeltaByteArray, deltaByteArrayCodec, deltaByteArrayDecoder } from './delta-byte-array.js';
export { decodeByteStreamSplit, encodeByteStreamSplit, byteStreamSplitCodec, byteStreamSplitDecoder } from './byte-stream-split.js';
export { decodeAlpFloat, decodeAlpDouble, encodeAlpFloat, encodeAlpDouble, alpCodec, alpDecoder, POW10_F32, NEG_POW10_F32, POW10_F64, NEG_POW10_F64 } from './alp.js';
