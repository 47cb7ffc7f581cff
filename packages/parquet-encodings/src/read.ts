/**
 * `@parquetry/parquet-encodings/read` — the decoding side alone, for readers: PLAIN, the RLE hybrid, bit packing and
 * dictionaries. No encoder and no other encoding's decoder is reachable from this entry, so a bundler keeps them out
 * of a reader's initial load (esbuild places every module its entry can reach in the initial load once any chunk
 * uses it). The page decoder of every encoding, the rare ones (DELTA_*, BYTE_STREAM_SPLIT, ALP) loaded with
 * `import()` on first use, is `@parquetry/parquet-encodings/read-registry` (`prepareEncoding`,
 * `decodePreparedValues`): apart from this entry, so that the level decoders' users (`@parquetry/parquet-levels`,
 * and through it writers) do not reach that `import()`.
 *
 * @packageDocumentation
 */
export type { ByteArrays, ColumnDescriptor, ColumnValues, DecodeResult, FixedLenByteArrays, ValueDecoder } from './types.js';
export { decodeRleHybrid, decodeRleHybridPrefixed, rleHybridAllEqual, bitWidthOf, rleDecoder } from './rle-hybrid.js';
export { decodeBitPacked } from './bit-packed.js';
export { decodePlain, decodePlainBoolean, decodePlainInt32, decodePlainInt64, decodePlainFloat, decodePlainDouble, decodePlainFixed, decodePlainByteArray, decodePlainByteArrayInto, plainDecoder } from './plain.js';
export { decodeDictionaryPage, decodeDictionaryIndices, applyDictionary, decodeDictionaryValues, valueCount, plainDictionaryDecoder, rleDictionaryDecoder, type NumericDictionary } from './dictionary.js';
