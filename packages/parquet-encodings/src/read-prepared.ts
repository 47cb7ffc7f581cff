/**
 * `@parquetry/parquet-encodings/read-prepared` — the readers' decoder table without a loader of its own: PLAIN,
 * PLAIN_DICTIONARY, RLE and RLE_DICTIONARY always at hand, the other encodings' decoders put in by the first
 * {@link prepareEncodingWith} from the module its `load` imports. `@parquetry/parquet-encodings/read-registry` is this
 * table with parquet-encodings' own `import('./rare-decoders.js')` as the loader.
 *
 * Why a module without the `import()`: esbuild makes every `import()` its bundle reaches an entry point, used or not,
 * and groups modules into chunks by the entry points that reach them. With parquet-encodings' `import()` in a
 * reader's bundle, the modules both the rare decoders and the initial load use (thrift-compact's, errors.ts,
 * bit-pack-kernels.ts) were a file of the initial load of their own; a reader passes a loader whose target is a module
 * of its own that reaches everything the initial load holds (parquet-reader's rare-part.ts), and the initial load is
 * one file fewer (openParquet + fetchSource + SNAPPY: see parquet-reader's optional.ts).
 *
 * ```ts
 * await prepareEncodingWith(encoding, () => import('@parquetry/parquet-encodings/rare-decoders'));
 * const { values } = decodePreparedValues(encoding, page, 0, page.length, count, { type });
 * ```
 *
 * @packageDocumentation
 */
import { Encoding, EncodingNames, ParquetError, TypeNames, isParquetError, type Type } from '@parquetry/thrift-compact';
import { installUnpack, type UnpackKernel } from './bit-pack-kernels.js';
import { plainDictionaryDecoder, rleDictionaryDecoder } from './dictionary.js';
import { encodingError } from './errors.js';
import { plainDecoder } from './plain.js';
import { rleDecoder } from './rle-hybrid.js';
import type { ColumnDescriptor, ColumnValues, DecodeResult, ValueDecoder } from './types.js';

/** What a loader of the rare decoders resolves to: the `@parquetry/parquet-encodings/rare-decoders` module. */
export interface RareDecoders {
  /** The decoders of DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and ALP. */
  readonly RARE_DECODERS: readonly ValueDecoder[];
  /** The unrolled unpack kernels of widths 9–17, 24 and 32, indexed by width. */
  readonly UNPACK_MID: readonly (UnpackKernel | undefined)[];
}

/**
 * Loads the rare decoders: `() => import('@parquetry/parquet-encodings/rare-decoders')`, or the `import()` of a module
 * that re-exports that one (a reader's own, for its bundle's chunk grouping).
 */
export type RareDecodersLoader = () => Promise<RareDecoders>;

/** Decoders ready to use: the eager four, then the rare ones once their module has loaded. */
const READY: (ValueDecoder | undefined)[] = [];
for (const d of [plainDecoder, plainDictionaryDecoder, rleDecoder, rleDictionaryDecoder]) READY[d.encoding] = d;

/** The encodings whose decoders are loaded on first use. */
const RARE: readonly number[] = [Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY, Encoding.BYTE_STREAM_SPLIT, Encoding.ALP];

let pending: Promise<void> | undefined;

/**
 * The specifier of parquet-encodings' own module of the rare decoders, imported by {@link prepareEncodingWith} when
 * it is given no loader. It is a variable so that a bundler does not see the `import()` (see the module's comment);
 * unbundled (Node, an ESM CDN) it resolves beside this module as a literal would. A bundle that decodes pages
 * through this module passes a loader (parquet-reader does; `@parquetry/parquet-encodings/read-registry` does).
 */
const OWN_RARE_DECODERS = './rare-decoders.js';

/**
 * What a reader awaits before decoding a page of an encoding: the load of its decoder, for DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and ALP the first time one of them is needed (they
 * share one lazily imported module, loaded once whichever loader loads it; a failed load is tried again next time).
 * @param encoding - the page's parquet.thrift `Encoding` number (untrusted).
 * @param load - imports the rare decoders' module (`() => import('@parquetry/parquet-encodings/rare-decoders')` or a
 *   module re-exporting it); without it, parquet-encodings' own module, imported by a specifier a bundler does not
 *   follow (see {@link RareDecodersLoader}).
 * @returns a promise to await, or undefined when there is nothing to wait for (the decoder is at hand, or the
 *   encoding is unknown: {@link decodePreparedValues} reports it).
 * @throws ParquetError `ENCODING_UNAVAILABLE` when the decoders' module cannot be loaded (as a rejected promise).
 */
export function prepareEncodingWith(encoding: number, load?: RareDecodersLoader): Promise<void> | undefined {
  if (READY[encoding] !== undefined || !RARE.includes(encoding)) return undefined;
  return (pending ??= (load ?? (() => import(/* @vite-ignore */ /* webpackIgnore: true */ OWN_RARE_DECODERS) as Promise<RareDecoders>))().then(
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
 *   `ENCODING_UNAVAILABLE` when its decoder is loaded on first use and {@link prepareEncodingWith} has not loaded it.
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
 * Decodes `count` values of an encoding whose decoder is at hand (after {@link prepareEncodingWith}).
 * @param encoding - the parquet.thrift `Encoding` number.
 * @param src - the encoded bytes (decompressed page values).
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param column - the column's physical type (and type length).
 * @param dictionary - the decoded dictionary page, for dictionary encodings.
 * @param charge - called before values that can outgrow the page are allocated (see `ValueDecoder.decode`).
 * @returns the values and the position after them.
 * @throws ParquetError `ENCODING_UNSUPPORTED`, `ENCODING_UNAVAILABLE` (see {@link getPreparedDecoder}), and the
 *   codes of the encoding's decoder; what `charge` throws.
 */
export function decodePreparedValues(encoding: number, src: Uint8Array, pos: number, end: number, count: number, column: ColumnDescriptor, dictionary?: ColumnValues, charge?: (bytes: number) => void): DecodeResult {
  return getPreparedDecoder(encoding, column.type).decode(src, pos, end, count, column, dictionary, charge);
}
