/**
 * The columnar value forms and the one interface every encoding module implements.
 * See https://github.com/apache/parquet-format/blob/master/Encodings.md for the encodings and
 * https://github.com/apache/parquet-format/blob/master/README.md#types for the physical types.
 *
 * @module
 */
import type { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';

/**
 * Variable-length byte arrays (BYTE_ARRAY) in columnar form: value `i` is
 * `data.subarray(offsets[i], offsets[i + 1])`; `offsets` has one more entry than there are values.
 */
export interface ByteArrays {
  /** `count + 1` non-decreasing offsets into `data`, starting at 0. */
  offsets: Int32Array;
  /** The concatenated value bytes. */
  data: Uint8Array;
}

/**
 * Fixed-length byte arrays (FIXED_LEN_BYTE_ARRAY, and INT96 with `width` 12): value `i` is
 * `data.subarray(i * width, (i + 1) * width)`.
 */
export interface FixedLenByteArrays {
  /** Bytes per value. */
  width: number;
  /** `count * width` bytes. */
  data: Uint8Array;
}

/**
 * Decoded values of one physical type:
 * BOOLEAN → `Uint8Array` (one 0/1 byte per value), INT32 → `Int32Array`, INT64 → `BigInt64Array`,
 * INT96 → {@link FixedLenByteArrays} (width 12), FLOAT → `Float32Array`, DOUBLE → `Float64Array`,
 * BYTE_ARRAY → {@link ByteArrays}, FIXED_LEN_BYTE_ARRAY → {@link FixedLenByteArrays}.
 */
export type ColumnValues = Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array | ByteArrays | FixedLenByteArrays;

/** The value form for each physical type (see {@link ColumnValues}). */
export interface ValuesByType {
  /** BOOLEAN */ 0: Uint8Array;
  /** INT32 */ 1: Int32Array;
  /** INT64 */ 2: BigInt64Array;
  /** INT96 */ 3: FixedLenByteArrays;
  /** FLOAT */ 4: Float32Array;
  /** DOUBLE */ 5: Float64Array;
  /** BYTE_ARRAY */ 6: ByteArrays;
  /** FIXED_LEN_BYTE_ARRAY */ 7: FixedLenByteArrays;
}

/** What an encoding needs to know about the column. */
export interface ColumnDescriptor {
  /** The physical type (`Type` enum of parquet.thrift). */
  type: Type;
  /** Bytes per value for FIXED_LEN_BYTE_ARRAY (`SchemaElement.type_length`). */
  typeLength?: number;
  /** For RLE-encoded levels or booleans: the bit width (BOOLEAN data pages use 1). */
  bitWidth?: number;
}

/** The result of {@link ValueCodec.decode}. */
export interface DecodeResult {
  /** The decoded values (the form for the column's type, see {@link ColumnValues}). */
  values: ColumnValues;
  /** Byte position after the encoded values. */
  pos: number;
}

/**
 * The decoding half of a {@link ValueCodec}: everything a reader needs. Readers look encodings up among decoders
 * only ({@link getDecoder}), so no encoder is reachable from (or bundled with) a reader.
 */
export interface ValueDecoder {
  /** The parquet.thrift `Encoding` number this codec implements. */
  readonly encoding: Encoding;
  /** Human-readable encoding name. */
  readonly name: string;
  /** Whether the encoding is defined for the physical type. */
  supports(type: Type): boolean;
  /**
   * Decodes `count` values from `src[pos, end)`.
   * @param dictionary - the decoded dictionary page, for dictionary encodings only.
   * @param charge - called with a byte count before the decoder allocates values that can outgrow the page (a
   *   reader's budget; DELTA_BYTE_ARRAY's shared prefixes rebuild up to count² / 2 bytes), and throws to refuse them.
   */
  decode(src: Uint8Array, pos: number, end: number, count: number, column: ColumnDescriptor, dictionary?: ColumnValues, charge?: (bytes: number) => void): DecodeResult;
}

/**
 * One Parquet encoding: decode `count` values from a byte range, encode values into a writer.
 * Implementations are stateless objects registered in {@link ENCODINGS} under their `Encoding` number.
 */
export interface ValueCodec extends ValueDecoder {
  /** Encodes all `values` (for dictionary encodings: the `Int32Array` of indices) into `w`. */
  encode(values: ColumnValues, column: ColumnDescriptor, w: ByteWriter): void;
}
