/**
 * XXH64 with seed 0, the hash Parquet bloom filters apply to the PLAIN encoding of
 * each value (BloomFilter.md, "Technical Approach": "XXH64 with a seed of 0 and
 * following the specification version 0.1.1",
 * https://github.com/apache/parquet-format/blob/master/BloomFilter.md and
 * https://github.com/Cyan4973/xxHash/blob/v0.7.0/doc/xxhash_spec.md).
 *
 * No BigInt anywhere: every 64-bit quantity is a pair of 32-bit words (lo, hi). The
 * 64×64→64 multiply takes the high half of the low-word product from 16-bit pieces and
 * the rest from `Math.imul`. The kernels live in `xxhash64-kernels.ts`, generated with
 * every operation inlined, and leave their result in two scratch words, so hashing
 * allocates nothing. Measured against xxhash-wasm (see bench/): this is faster for one
 * value at a time (no copy into wasm memory, no BigInt result); wasm is faster for
 * long buffers, which bloom filters do not hash.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import { R, hashByte, hashBytes, hashWord32, hashWord64 } from './xxhash64-kernels.js';

export { R, hashByte, hashBytes, hashWord32, hashWord64 };

// Bit views for FLOAT / DOUBLE / bigint. Parquet PLAIN is little-endian and typed arrays use
// the platform's order, so refuse to load on a big-endian platform rather than hash wrong bytes.
const f64 = /*#__PURE__*/ new Float64Array(1);
const f32 = /*#__PURE__*/ new Float32Array(f64.buffer, 0, 1);
const u32 = /*#__PURE__*/ new Uint32Array(f64.buffer);
const b64 = /*#__PURE__*/ new BigInt64Array(f64.buffer);
u32[0] = 1;
if (new Uint8Array(f64.buffer)[0] !== 1) {
  throw new Error('parquet-bloom: big-endian platforms are not supported');
}

/**
 * Hashes the binary32 bits of `v` into `R`.
 * @param v - the number (rounded to binary32).
 * @internal
 */
export function hashFloatBits(v: number): void {
  f32[0] = v;
  hashWord32(u32[0]!);
}

/**
 * Hashes the binary64 bits of `v` into `R`.
 * @param v - the number.
 * @internal
 */
export function hashDoubleBits(v: number): void {
  f64[0] = v;
  hashWord64(u32[0]!, u32[1]!);
}

/**
 * Hashes a bigint as a two's-complement INT64 into `R` (wraps to 64 bits; cold paths only).
 * @param v - the value.
 * @internal
 */
export function hashBigInt64(v: bigint): void {
  b64[0] = BigInt.asIntN(64, v);
  hashWord64(u32[0]!, u32[1]!);
}

/**
 * XXH64 (seed 0) of `len` bytes of `src` starting at `pos`, with no BigInt and no allocation.
 *
 * @param src - the bytes.
 * @param pos - first byte to hash.
 * @param len - number of bytes to hash.
 * @param out - receives the hash: `out[0]` the low 32 bits, `out[1]` the high 32 bits.
 * @throws ParquetError `BLOOM_INVALID_ARGUMENT` when `[pos, pos + len)` is not inside `src`.
 */
export function xxhash64(src: Uint8Array, pos: number, len: number, out: Uint32Array): void {
  if (!(pos >= 0 && len >= 0 && pos + len <= src.length)) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: xxhash64 range [${pos}, ${pos + len}) is outside a buffer of ${src.length} bytes`);
  }
  hashBytes(src, pos, len);
  out[0] = R[0]!;
  out[1] = R[1]!;
}

/**
 * XXH64 (seed 0) of an INT32's PLAIN encoding (4 bytes, little-endian), without building a buffer.
 *
 * @param value - the int32 value (its low 32 bits are hashed).
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Int32(value: number, out: Uint32Array): void {
  hashWord32(value);
  out[0] = R[0]!;
  out[1] = R[1]!;
}

/**
 * XXH64 (seed 0) of an INT64's PLAIN encoding (8 bytes, little-endian) given as two words.
 *
 * @param lo - low 32 bits of the two's-complement value.
 * @param hi - high 32 bits of the two's-complement value.
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Int64(lo: number, hi: number, out: Uint32Array): void {
  hashWord64(lo, hi);
  out[0] = R[0]!;
  out[1] = R[1]!;
}

/**
 * XXH64 (seed 0) of a FLOAT's PLAIN encoding (IEEE 754 binary32, little-endian).
 *
 * @param value - the number, rounded to binary32 as a `Float32Array` store would.
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Float(value: number, out: Uint32Array): void {
  hashFloatBits(value);
  out[0] = R[0]!;
  out[1] = R[1]!;
}

/**
 * XXH64 (seed 0) of a DOUBLE's PLAIN encoding (IEEE 754 binary64, little-endian).
 *
 * @param value - the number.
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Double(value: number, out: Uint32Array): void {
  hashDoubleBits(value);
  out[0] = R[0]!;
  out[1] = R[1]!;
}
