/**
 * `@parquetry/parquet-encodings/read-registry` — the readers' decoder table: PLAIN, PLAIN_DICTIONARY, RLE and
 * RLE_DICTIONARY always at hand, the other
 * encodings' decoders loaded with `import()` on first use ({@link prepareEncoding}) and kept once loaded. A reader
 * awaits {@link prepareEncoding} for a page's encoding before it decodes the page with {@link decodePreparedValues}.
 *
 * ```ts
 * await prepareEncoding(encoding); // nothing to wait for with PLAIN / RLE / dictionaries
 * const { values } = decodePreparedValues(encoding, page, 0, page.length, count, { type });
 * ```
 *
 * The table is `@parquetry/parquet-encodings/read-prepared`'s (one table, whichever entry loads the rare decoders);
 * this entry adds parquet-encodings' own `import()` of them, which a reader's bundle leaves out by importing
 * `/read-prepared` with a loader of its own (see there).
 *
 * @packageDocumentation
 */
import { prepareEncodingWith, type RareDecoders, type RareDecodersLoader } from './read-prepared.js';

export { prepareUnpack, getPreparedDecoder, decodePreparedValues, type RareDecoders, type RareDecodersLoader } from './read-prepared.js';

/**
 * Imports parquet-encodings' module of the rare decoders (DELTA_*, BYTE_STREAM_SPLIT, ALP), a lazy chunk in a bundle.
 * @returns the module.
 */
export const loadRareDecoders: RareDecodersLoader = (): Promise<RareDecoders> => import('./rare-decoders.js');

/**
 * What a reader awaits before decoding a page of an encoding: the load of its decoder, for DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and ALP the first time one of them is needed (they
 * share one lazily imported module, loaded once; a failed load is tried again next time).
 * @param encoding - the page's parquet.thrift `Encoding` number (untrusted).
 * @param load - imports the rare decoders' module (default {@link loadRareDecoders}).
 * @returns a promise to await, or undefined when there is nothing to wait for (the decoder is at hand, or the
 *   encoding is unknown: {@link decodePreparedValues} reports it).
 * @throws ParquetError `ENCODING_UNAVAILABLE` when the decoders' module cannot be loaded (as a rejected promise).
 */
export function prepareEncoding(encoding: number, load: RareDecodersLoader = loadRareDecoders): Promise<void> | undefined {
  return prepareEncodingWith(encoding, load);
}
