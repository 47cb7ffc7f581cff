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
 * @packageDocumentation
 */
import { Encoding, EncodingNames, ParquetError, TypeNames, isParquetError, type Type } from '@parquetry/thrift-compact';
import { installUnpack } from './bit-pack-kernels.js';
import { plainDictionaryDecoder, rleDictionaryDecoder } from './dictionary.js';
import { encodingError } from './errors.js';
import { plainDecoder } from './plain.js';
import { rleDecoder } from './rle-hybrid.js';
import type { ColumnDescriptor, ColumnValues, DecodeResult, ValueDecoder } from './types.js';

/** Decoders ready to use: the eager four, then the rare ones once their module has loaded. */
const READY: (ValueDecoder | undefined)[] = [];
for (const d of [plainDecoder, plainDictionaryDecoder, rleDecoder, rleDictionaryDecoder]) READY[d.encoding] = d;

/** The encodings whose decoders are loaded on first use. */
const RARE: readonly number[] = [Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY, Encoding.BYTE_STREAM_SPLIT, Encoding.ALP];

let pending: Promise<void> | undefined;

/**
 * What a reader awaits before decoding a page of an encoding: the load of its decoder, for DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and ALP the first time one of them is needed (they
 * share one lazily imported module, loaded once; a failed load is tried again next time).
 * @param encoding - the page's parquet.thrift `Encoding` number (untrusted).
 * @returns a promise to await, or undefined when there is nothing to wait for (the decoder is at hand, or the
 *   encoding is unknown: {@link decodePreparedValues} reports it).
 * @throws ParquetError `ENCODING_UNAVAILABLE` when the decoders' module cannot be loaded (as a rejected promise).
 */
export function prepareEncoding(encoding: number): Promise<void> | undefined {
  if (READY[encoding] !== undefined || !RARE.includes(encoding)) return undefined;
  return (pending ??= import('./rare-decoders.js').then(
    (m) => {
      for (const d of m.RARE_DECODERS) READY[d.encoding] = d;
      installUnpack(m.UNPACK_MID);
    },
    (e: unknown) => {
      pending = undefined;
      const detail = isParquetError(e) ? e.message : String((e as Error)?.message ?? e);
      throw new ParquetError('ENCODING_UNAVAILABLE', `parquet-encodings: cannot load the ${EncodingNames[encoding] ?? encoding} decoder: ${detail}`, undefined, { cause: e });
    },
  ));
}

/** The load of the unrolled unpack kernels of widths 9–17, 24 and 32, once started (settled: loaded or not). */
let unpackLoad: Promise<void> | undefined;
/** Whether that load has settled (nothing more to wait for, whether it loaded or failed). */
let unpackSettled = false;

/**
 * What a reader may await before decoding a page of dictionary indices of a bit width (the byte that starts the
 * page's values): the load of the unrolled unpack kernels of widths 9–17, 24 and 32 (dictionaries of 257 to 2^17
 * entries), on the first page of such a width. Without them, the indices are unpacked by one shared loop: the same
 * values, slower; so a failed load is not an error, the shared loop stays (and the load is not tried again).
 * @param bitWidth - the page's index bit width (untrusted; widths outside 9–32 need nothing).
 * @returns a promise to await (it never rejects), or undefined when there is nothing to wait for.
 */
export function prepareUnpack(bitWidth: number): Promise<void> | undefined {
  if (unpackSettled || !(bitWidth > 8 && bitWidth <= 32)) return undefined;
  return (unpackLoad ??= import('./bit-pack-mid-kernels.js').then(
    (m) => installUnpack(m.UNPACK_MID),
    () => {},
  ).finally(() => {
    unpackSettled = true;
  }));
}

/**
 * Looks up the decoder of an encoding among those at hand and checks that it supports the physical type.
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param type - the physical type.
 * @returns the decoder.
 * @throws ParquetError `ENCODING_UNSUPPORTED` when the encoding is unknown or not defined for the type,
 *   `ENCODING_UNAVAILABLE` when its decoder is loaded on first use and {@link prepareEncoding} has not loaded it.
 */
export function getPreparedDecoder(encoding: number, type: Type): ValueDecoder {
  const d = READY[encoding];
  if (d === undefined) {
    const name = EncodingNames[encoding] ?? String(encoding);
    if (RARE.includes(encoding)) throw encodingError('ENCODING_UNAVAILABLE', `the ${name} decoder is not loaded yet: await prepareEncoding(${encoding}) before decoding its pages`);
    throw encodingError('ENCODING_UNSUPPORTED', `encoding ${name} is not implemented`);
  }
  if (!d.supports(type)) throw encodingError('ENCODING_UNSUPPORTED', `encoding ${d.name} is not defined for physical type ${TypeNames[type] ?? type}`);
  return d;
}

/**
 * Decodes `count` values of an encoding whose decoder is at hand (after {@link prepareEncoding}).
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param src - the encoded bytes (decompressed page values).
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param column - the column's physical type (and type length).
 * @param dictionary - the decoded dictionary page, for dictionary encodings.
 * @returns the values and the position after them.
 * @throws ParquetError `ENCODING_UNSUPPORTED`, `ENCODING_UNAVAILABLE` (see {@link getPreparedDecoder}), and the
 *   codes of the encoding's decoder.
 */
export function decodePreparedValues(encoding: number, src: Uint8Array, pos: number, end: number, count: number, column: ColumnDescriptor, dictionary?: ColumnValues): DecodeResult {
  return getPreparedDecoder(encoding, column.type).decode(src, pos, end, count, column, dictionary);
}
