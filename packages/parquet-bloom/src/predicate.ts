/**
 * Values of a physical type → the bytes BloomFilter.md hashes ("The hash function used in
 * Bloom filter ... takes the hash of a column value using plain encoding", parquet.thrift
 * `BloomFilterHash`; PLAIN per Encodings.md,
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#plain-plain--0):
 *
 * | physical type          | bytes hashed                                             |
 * | ---------------------- | -------------------------------------------------------- |
 * | INT32 / FLOAT          | 4 bytes little-endian (FLOAT: IEEE 754 binary32)          |
 * | INT64 / DOUBLE         | 8 bytes little-endian (DOUBLE: IEEE 754 binary64)         |
 * | INT96                  | its 12 bytes                                             |
 * | BYTE_ARRAY             | the value bytes, without PLAIN's 4-byte length prefix    |
 * | FIXED_LEN_BYTE_ARRAY   | its `type_length` bytes                                  |
 * | BOOLEAN                | one byte, 0 or 1 (arrow-rs / hyparquet; parquet-java writes none) |
 *
 * Used by a reader to answer "definitely absent / maybe present" for `col = v` and
 * `col IN (...)`, and by a writer to insert values one at a time.
 *
 * @module
 */
import { ParquetError, Type } from '@parquetry/thrift-compact';
import type { SplitBlockBloomFilter } from './sbbf.js';
import { hashBigInt64, hashByte, hashBytes, hashDoubleBits, hashFloatBits, hashWord32, hashWord64, R } from './xxhash64.js';

/** A value as a predicate or a writer holds it: see {@link hashValue} for what each physical type accepts. */
export type BloomValue = boolean | number | bigint | string | Uint8Array;

const utf8 = /*#__PURE__*/ new TextEncoder();
const TWO_32 = 4294967296;

function bad(type: number, value: BloomValue, expected: string): never {
  const shown = value instanceof Uint8Array ? `Uint8Array(${value.length})` : typeof value === 'bigint' ? `${value}n` : JSON.stringify(value);
  throw new ParquetError('BLOOM_VALUE_TYPE', `parquet-bloom: value ${shown} cannot be a ${typeName(type)} value, expected ${expected}`);
}

function typeName(type: number): string {
  for (const [k, v] of Object.entries(Type)) if (v === type) return k;
  return `physical type ${type}`;
}

/**
 * Hashes one value of a physical type into the scratch words `R`.
 * @param type - the column's physical `Type`.
 * @param value - the value.
 * @param typeLength - FIXED_LEN_BYTE_ARRAY width, when known (checked if given).
 */
function hashInto(type: number, value: BloomValue, typeLength: number | undefined): void {
  switch (type) {
    case Type.BOOLEAN:
      if (typeof value !== 'boolean') bad(type, value, 'a boolean');
      hashByte(value ? 1 : 0);
      return;
    case Type.INT32:
      if (typeof value === 'number') {
        // Accept the signed range and, for UINT_32/UINT_8/UINT_16 columns, the unsigned one: same bits.
        if (!(Number.isInteger(value) && value >= -0x80000000 && value <= 0xffffffff)) bad(type, value, 'an integer in [-2^31, 2^32)');
        hashWord32(value | 0);
        return;
      }
      if (typeof value === 'bigint') {
        if (!(value >= -0x80000000n && value <= 0xffffffffn)) bad(type, value, 'an integer in [-2^31, 2^32)');
        hashWord32(Number(BigInt.asIntN(32, value)));
        return;
      }
      return bad(type, value, 'a number or bigint');
    case Type.INT64:
      if (typeof value === 'bigint') {
        if (!(value >= -(1n << 63n) && value < 1n << 64n)) bad(type, value, 'an integer in [-2^63, 2^64)');
        hashBigInt64(value);
        return;
      }
      if (typeof value === 'number') {
        if (!Number.isSafeInteger(value)) bad(type, value, 'a safe integer (use a bigint beyond 2^53)');
        const hi = Math.floor(value / TWO_32);
        hashWord64(value - hi * TWO_32, hi | 0);
        return;
      }
      return bad(type, value, 'a bigint or safe integer');
    case Type.FLOAT:
      if (typeof value !== 'number') bad(type, value, 'a number');
      hashFloatBits(value);
      return;
    case Type.DOUBLE:
      if (typeof value !== 'number') bad(type, value, 'a number');
      hashDoubleBits(value);
      return;
    case Type.INT96:
      if (!(value instanceof Uint8Array) || value.length !== 12) bad(type, value, 'a Uint8Array of 12 bytes');
      hashBytes(value, 0, 12);
      return;
    case Type.BYTE_ARRAY:
    case Type.FIXED_LEN_BYTE_ARRAY: {
      const bytes = typeof value === 'string' ? utf8.encode(value) : value instanceof Uint8Array ? value : bad(type, value, 'a string or Uint8Array');
      if (type === Type.FIXED_LEN_BYTE_ARRAY && typeLength !== undefined && bytes.length !== typeLength) {
        bad(type, value, `${typeLength} bytes`);
      }
      hashBytes(bytes, 0, bytes.length);
      return;
    }
    default:
      throw new ParquetError('BLOOM_VALUE_TYPE', `parquet-bloom: unknown physical type ${type}`);
  }
}

/**
 * XXH64 (seed 0) of one value's PLAIN bytes for a physical type (see the module table).
 *
 * Accepted values: BOOLEAN `boolean`; INT32 integer `number`/`bigint` in [-2^31, 2^32)
 * (unsigned values map to the same bits); INT64 `bigint` in [-2^63, 2^64) or a safe-integer
 * `number`; FLOAT/DOUBLE `number`; INT96 a 12-byte `Uint8Array`; BYTE_ARRAY and
 * FIXED_LEN_BYTE_ARRAY a `Uint8Array` or a `string` (UTF-8 encoded).
 *
 * @param type - the column's physical `Type` (e.g. `Type.INT64`).
 * @param value - the value.
 * @param out - receives the hash as `[lo, hi]`.
 * @param typeLength - FIXED_LEN_BYTE_ARRAY width; when given, other lengths are rejected.
 * @throws ParquetError `BLOOM_VALUE_TYPE` when the value does not fit the type.
 */
export function hashValue(type: Type, value: BloomValue, out: Uint32Array, typeLength?: number): void {
  hashInto(type, value, typeLength);
  out[0] = R[0]!;
  out[1] = R[1]!;
}

/**
 * Inserts one value of a physical type into a filter (writer side, one value at a time;
 * for whole columns prefer the typed `insertXValues` methods of the filter).
 *
 * @param filter - the column chunk's filter.
 * @param type - the column's physical `Type`.
 * @param value - the value (see {@link hashValue}).
 * @param typeLength - FIXED_LEN_BYTE_ARRAY width, checked when given.
 * @throws ParquetError `BLOOM_VALUE_TYPE` when the value does not fit the type.
 */
export function bloomInsert(filter: SplitBlockBloomFilter, type: Type, value: BloomValue, typeLength?: number): void {
  hashInto(type, value, typeLength);
  filter.insertHash(R[0]!, R[1]!);
}

/**
 * Answers an equality predicate `column = value` against a column chunk's filter.
 *
 * @param filter - the column chunk's filter.
 * @param type - the column's physical `Type`.
 * @param value - the predicate's value, already converted to the physical representation
 *   (e.g. a DATE as its INT32 day count, a DECIMAL as its unscaled bytes/integer).
 * @param typeLength - FIXED_LEN_BYTE_ARRAY width, checked when given.
 * @returns `false` when the value is definitely absent from the column chunk, `true` when it may be present.
 * @throws ParquetError `BLOOM_VALUE_TYPE` when the value does not fit the type.
 */
export function bloomMightContain(filter: SplitBlockBloomFilter, type: Type, value: BloomValue, typeLength?: number): boolean {
  hashInto(type, value, typeLength);
  return filter.mightContainHash(R[0]!, R[1]!);
}

/**
 * Answers an `IN (...)` predicate: may any of `values` be present?
 *
 * @param filter - the column chunk's filter.
 * @param type - the column's physical `Type`.
 * @param values - the predicate's values (see {@link bloomMightContain}).
 * @param typeLength - FIXED_LEN_BYTE_ARRAY width, checked when given.
 * @returns `false` when every value is definitely absent (the chunk can be skipped), else `true`.
 * @throws ParquetError `BLOOM_VALUE_TYPE` when a value does not fit the type.
 */
export function bloomMightContainAny(
  filter: SplitBlockBloomFilter,
  type: Type,
  values: ArrayLike<BloomValue>,
  typeLength?: number,
): boolean {
  for (let i = 0; i < values.length; i++) {
    hashInto(type, values[i]!, typeLength);
    if (filter.mightContainHash(R[0]!, R[1]!)) return true;
  }
  return false;
}
