/**
 * The split block Bloom filter (SBBF) of BloomFilter.md, "Technical Approach" and
 * "Sizing an SBBF" (https://github.com/apache/parquet-format/blob/master/BloomFilter.md).
 *
 * ```
 * salt[8] = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
 *            0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}
 * mask(x):          word i of the block gets bit (x * salt[i]) >> 27   (32-bit multiply)
 * filter_insert(h): i = ((h >> 32) * z) >> 32;  block_insert(block i, (uint32) h)
 * filter_check(h):  i = ((h >> 32) * z) >> 32;  return block_check(block i, (uint32) h)
 * ```
 *
 * A block is 256 bits = eight little-endian u32 words; the bitset is the blocks in
 * order. We only build and accept power-of-two sizes (as parquet-java, arrow-rs and
 * DuckDB write), so `z = 2^k` and the block index `((h >> 32) * z) >> 32` is exactly
 * `(h >> 32) >>> (32 - k)`: a shift, no 64-bit product.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import {
  hashBigInt64,
  hashByte,
  hashBytes,
  hashDoubleBits,
  hashFloatBits,
  hashWord32,
  hashWord64,
  R,
} from './xxhash64.js';

/** Smallest bitset in bytes: one 32-byte block (BloomFilter.md: `z` ≥ 1). */
export const BLOOM_MIN_BYTES = 32;
/** Default largest bitset in bytes when sizing or reading: 128 MiB, as parquet-java and arrow-rs use. */
export const BLOOM_DEFAULT_MAX_BYTES = 128 * 1024 * 1024;
/** Hard upper bound on any bitset: `numBytes` is a thrift i32, so 2^30 is the largest power of two. */
const BLOOM_ABSOLUTE_MAX_BYTES = 1 << 30;

const isPowerOfTwo = (n: number): boolean => Number.isInteger(n) && n > 0 && n <= BLOOM_ABSOLUTE_MAX_BYTES && (n & (n - 1)) === 0;

/**
 * Expected false-positive probability of a filter of `numBytes` bytes holding `ndv`
 * distinct values.
 *
 * The number of values landing in one block is Poisson with mean `λ = ndv / blocks`; a
 * block holding `k` values answers a random absent hash "maybe" with probability
 * `(1 - (31/32)^k)^8` (each of its eight words has one of 32 bits chosen per value). The
 * expectation over `k` reproduces the spec's example: 1024 blocks and 26,214 values give
 * about 1.26 %.
 *
 * @param numBytes - bitset size in bytes (a multiple of 32).
 * @param ndv - number of distinct values inserted.
 * @returns the expected false-positive probability in [0, 1].
 * @throws ParquetError `BLOOM_INVALID_ARGUMENT` for a size below 32 bytes or a negative/non-finite `ndv`.
 */
export function expectedFpp(numBytes: number, ndv: number): number {
  if (!(numBytes >= BLOOM_MIN_BYTES) || !Number.isFinite(numBytes)) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: numBytes must be >= ${BLOOM_MIN_BYTES}, got ${numBytes}`);
  }
  if (!(ndv >= 0) || !Number.isFinite(ndv)) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: ndv must be a finite number >= 0, got ${ndv}`);
  }
  const lambda = ndv / Math.floor(numBytes / 32);
  if (lambda === 0) return 0;
  const perBlock = (k: number): number => Math.pow(1 - Math.pow(31 / 32, k), 8);
  // Sum the Poisson terms outward from the mode until they vanish.
  const mode = Math.floor(lambda);
  const pMode = Math.exp(-lambda + mode * Math.log(lambda) - lnFactorial(mode));
  let sum = pMode * perBlock(mode);
  let p = pMode;
  for (let k = mode + 1; p > 1e-18 || k < lambda + 10; k++) {
    p *= lambda / k;
    sum += p * perBlock(k);
  }
  p = pMode;
  for (let k = mode; k > 0 && (p > 1e-18 || k > lambda - 10); k--) {
    p *= k / lambda;
    sum += p * perBlock(k - 1);
  }
  return Math.min(1, sum);
}

/** ln(k!) — exact sum below 20, Stirling series above (error < 1e-12). */
function lnFactorial(k: number): number {
  if (k < 20) {
    let s = 0;
    for (let i = 2; i <= k; i++) s += Math.log(i);
    return s;
  }
  const k2 = k * k;
  return k * Math.log(k) - k + 0.5 * Math.log(2 * Math.PI * k) + 1 / (12 * k) - 1 / (360 * k * k2) + 1 / (1260 * k2 * k2 * k);
}

/**
 * Bitset size in bytes for `ndv` distinct values at false-positive probability `fpp`:
 * the smallest power of two in `[32, maxBytes]` whose {@link expectedFpp} is at most `fpp`
 * (or `maxBytes` when none is).
 *
 * The search starts from the classic estimate `m = -8 · ndv / ln(1 - fpp^(1/8))` bits used
 * by parquet-java, arrow-rs and DuckDB. That estimate ignores how unevenly values fall into
 * blocks, so at tight targets it under-sizes (about 21 bits per value at 0.01 % where the
 * spec's table says 26.4); this function then picks the next power of two, so our filters
 * are sometimes twice the size those writers would choose for the same arguments, and
 * meet the target.
 *
 * @param ndv - expected number of distinct values (≥ 0).
 * @param fpp - target false-positive probability, strictly between 0 and 1.
 * @param maxBytes - largest allowed size, a power of two ≥ 32 (default 128 MiB).
 * @returns the bitset size in bytes, a power of two.
 * @throws ParquetError `BLOOM_INVALID_ARGUMENT` for a negative/non-finite `ndv`, an `fpp` outside (0, 1) or a bad `maxBytes`.
 */
export function optimalNumBytes(ndv: number, fpp: number, maxBytes: number = BLOOM_DEFAULT_MAX_BYTES): number {
  if (!(ndv >= 0) || !Number.isFinite(ndv)) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: ndv must be a finite number >= 0, got ${ndv}`);
  }
  if (!(fpp > 0 && fpp < 1)) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: fpp must be in (0, 1), got ${fpp}`);
  }
  checkMaxBytes(maxBytes);
  const bits = (-8 * ndv) / Math.log(1 - Math.pow(fpp, 1 / 8));
  const bytes = Math.ceil(bits / 8);
  if (!(bytes < maxBytes)) return maxBytes; // also catches Infinity
  let n = BLOOM_MIN_BYTES;
  while (n < bytes) n *= 2;
  while (n < maxBytes && expectedFpp(n, ndv) > fpp) n *= 2;
  return n;
}

function checkMaxBytes(maxBytes: number): void {
  if (!isPowerOfTwo(maxBytes) || maxBytes < BLOOM_MIN_BYTES) {
    throw new ParquetError(
      'BLOOM_INVALID_ARGUMENT',
      `parquet-bloom: maxBytes must be a power of two in [${BLOOM_MIN_BYTES}, ${BLOOM_ABSOLUTE_MAX_BYTES}], got ${maxBytes}`,
    );
  }
}

/**
 * A split block Bloom filter: `numBytes / 32` blocks of eight 32-bit words.
 *
 * Hashes are passed as two 32-bit words (`lo` = least significant). The typed
 * `insertX` / `mightContainX` methods hash one value's PLAIN bytes with XXH64 (seed 0)
 * and never allocate; the `insertXValues` methods do a whole column chunk's values.
 */
export class SplitBlockBloomFilter {
  /** The bitset as u32 words, block `i` at `words[8i .. 8i+7]` (platform order = little-endian, checked at load). */
  readonly words: Uint32Array;
  /** `31 - log2(numBlocks)`: the block index is `((hashHi >>> 1) >>> shift)`. */
  private readonly shift: number;

  /**
   * An empty filter of `numBytes` bytes.
   * @param numBytes - bitset size: a power of two in [32, 2^30].
   * @throws ParquetError `BLOOM_BAD_SIZE` when `numBytes` is not such a power of two.
   */
  constructor(numBytes: number) {
    if (!isPowerOfTwo(numBytes) || numBytes < BLOOM_MIN_BYTES) {
      throw new ParquetError(
        'BLOOM_BAD_SIZE',
        `parquet-bloom: bitset size must be a power of two in [${BLOOM_MIN_BYTES}, ${BLOOM_ABSOLUTE_MAX_BYTES}] bytes, got ${numBytes}`,
      );
    }
    this.words = new Uint32Array(numBytes >>> 2);
    this.shift = 31 - Math.log2(numBytes >>> 5);
  }

  /**
   * An empty filter sized for `ndv` distinct values at false-positive probability `fpp`.
   * @param ndv - expected number of distinct values.
   * @param fpp - target false-positive probability in (0, 1).
   * @param maxBytes - size cap, a power of two (default 128 MiB).
   * @returns the filter.
   * @throws ParquetError `BLOOM_INVALID_ARGUMENT` (see {@link optimalNumBytes}).
   */
  static forNdv(ndv: number, fpp: number, maxBytes: number = BLOOM_DEFAULT_MAX_BYTES): SplitBlockBloomFilter {
    return new SplitBlockBloomFilter(optimalNumBytes(ndv, fpp, maxBytes));
  }

  /**
   * A filter holding a copy of a serialized bitset (the bytes after the BloomFilterHeader).
   * @param bitset - the bitset bytes; its length must be a power of two ≥ 32.
   * @returns the filter.
   * @throws ParquetError `BLOOM_BAD_SIZE` when the length is not such a power of two.
   */
  static fromBitset(bitset: Uint8Array): SplitBlockBloomFilter {
    const f = new SplitBlockBloomFilter(bitset.length);
    new Uint8Array(f.words.buffer).set(bitset);
    return f;
  }

  /** Bitset size in bytes. */
  get numBytes(): number {
    return this.words.length << 2;
  }

  /** Number of 256-bit blocks. */
  get numBlocks(): number {
    return this.words.length >>> 3;
  }

  /**
   * The bitset as bytes (a view over {@link SplitBlockBloomFilter.words}, not a copy).
   * @returns `numBytes` bytes, block after block, words little-endian.
   */
  bitset(): Uint8Array {
    return new Uint8Array(this.words.buffer, this.words.byteOffset, this.words.byteLength);
  }

  /**
   * `filter_insert` of a 64-bit hash.
   * @param lo - least significant 32 bits of the hash.
   * @param hi - most significant 32 bits of the hash (selects the block).
   */
  insertHash(lo: number, hi: number): void {
    const w = this.words;
    const b = ((hi >>> 1) >>> this.shift) << 3;
    w[b] = w[b]! | (1 << (Math.imul(lo, 0x47b6137b) >>> 27));
    w[b + 1] = w[b + 1]! | (1 << (Math.imul(lo, 0x44974d91) >>> 27));
    w[b + 2] = w[b + 2]! | (1 << (Math.imul(lo, 0x8824ad5b) >>> 27));
    w[b + 3] = w[b + 3]! | (1 << (Math.imul(lo, 0xa2b7289d) >>> 27));
    w[b + 4] = w[b + 4]! | (1 << (Math.imul(lo, 0x705495c7) >>> 27));
    w[b + 5] = w[b + 5]! | (1 << (Math.imul(lo, 0x2df1424b) >>> 27));
    w[b + 6] = w[b + 6]! | (1 << (Math.imul(lo, 0x9efc4947) >>> 27));
    w[b + 7] = w[b + 7]! | (1 << (Math.imul(lo, 0x5c6bfb31) >>> 27));
  }

  /**
   * `filter_check` of a 64-bit hash.
   * @param lo - least significant 32 bits of the hash.
   * @param hi - most significant 32 bits of the hash.
   * @returns false when the value is definitely absent, true when it may be present.
   */
  mightContainHash(lo: number, hi: number): boolean {
    const w = this.words;
    const b = ((hi >>> 1) >>> this.shift) << 3;
    return (
      (w[b]! & (1 << (Math.imul(lo, 0x47b6137b) >>> 27))) !== 0 &&
      (w[b + 1]! & (1 << (Math.imul(lo, 0x44974d91) >>> 27))) !== 0 &&
      (w[b + 2]! & (1 << (Math.imul(lo, 0x8824ad5b) >>> 27))) !== 0 &&
      (w[b + 3]! & (1 << (Math.imul(lo, 0xa2b7289d) >>> 27))) !== 0 &&
      (w[b + 4]! & (1 << (Math.imul(lo, 0x705495c7) >>> 27))) !== 0 &&
      (w[b + 5]! & (1 << (Math.imul(lo, 0x2df1424b) >>> 27))) !== 0 &&
      (w[b + 6]! & (1 << (Math.imul(lo, 0x9efc4947) >>> 27))) !== 0 &&
      (w[b + 7]! & (1 << (Math.imul(lo, 0x5c6bfb31) >>> 27))) !== 0
    );
  }

  /**
   * Inserts an INT32 value (hash of its 4 PLAIN bytes).
   * @param value - the value; its low 32 bits are used.
   */
  insertInt32(value: number): void {
    hashWord32(value);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes an INT32 value.
   * @param value - the value; its low 32 bits are used.
   * @returns false when definitely absent.
   */
  mightContainInt32(value: number): boolean {
    hashWord32(value);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts an INT64 value given as two's-complement words (hash of its 8 PLAIN bytes).
   * @param lo - low 32 bits.
   * @param hi - high 32 bits.
   */
  insertInt64(lo: number, hi: number): void {
    hashWord64(lo, hi);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes an INT64 value given as two's-complement words.
   * @param lo - low 32 bits.
   * @param hi - high 32 bits.
   * @returns false when definitely absent.
   */
  mightContainInt64(lo: number, hi: number): boolean {
    hashWord64(lo, hi);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts an INT64 given as a bigint (wrapped to 64 bits). Convenience for cold paths.
   * @param value - the value.
   */
  insertBigInt64(value: bigint): void {
    hashBigInt64(value);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes an INT64 given as a bigint (wrapped to 64 bits).
   * @param value - the value.
   * @returns false when definitely absent.
   */
  mightContainBigInt64(value: bigint): boolean {
    hashBigInt64(value);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts a FLOAT (hash of its binary32 PLAIN bytes; `-0` and `0` differ, as on disk).
   * @param value - the number, rounded to binary32.
   */
  insertFloat(value: number): void {
    hashFloatBits(value);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes a FLOAT.
   * @param value - the number, rounded to binary32.
   * @returns false when definitely absent.
   */
  mightContainFloat(value: number): boolean {
    hashFloatBits(value);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts a DOUBLE (hash of its binary64 PLAIN bytes).
   * @param value - the number.
   */
  insertDouble(value: number): void {
    hashDoubleBits(value);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes a DOUBLE.
   * @param value - the number.
   * @returns false when definitely absent.
   */
  mightContainDouble(value: number): boolean {
    hashDoubleBits(value);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts a BOOLEAN, hashed as one byte 0 or 1 (the arrow-rs and hyparquet convention;
   * parquet-java writes no filters for BOOLEAN).
   * @param value - the value.
   */
  insertBoolean(value: boolean): void {
    hashByte(value ? 1 : 0);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes a BOOLEAN (see {@link SplitBlockBloomFilter.insertBoolean}).
   * @param value - the value.
   * @returns false when definitely absent.
   */
  mightContainBoolean(value: boolean): boolean {
    hashByte(value ? 1 : 0);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts a BYTE_ARRAY (its bytes, without PLAIN's 4-byte length prefix), a
   * FIXED_LEN_BYTE_ARRAY or an INT96 (12 bytes).
   * @param src - buffer holding the value.
   * @param pos - first byte of the value.
   * @param len - its length in bytes.
   * @throws ParquetError `BLOOM_INVALID_ARGUMENT` when `[pos, pos+len)` is outside `src`.
   */
  insertBytes(src: Uint8Array, pos: number, len: number): void {
    checkRange(src, pos, len);
    hashBytes(src, pos, len);
    this.insertHash(R[0]!, R[1]!);
  }
  /**
   * Probes a BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY / INT96 value.
   * @param src - buffer holding the value.
   * @param pos - first byte of the value.
   * @param len - its length in bytes.
   * @returns false when definitely absent.
   * @throws ParquetError `BLOOM_INVALID_ARGUMENT` when `[pos, pos+len)` is outside `src`.
   */
  mightContainBytes(src: Uint8Array, pos: number, len: number): boolean {
    checkRange(src, pos, len);
    hashBytes(src, pos, len);
    return this.mightContainHash(R[0]!, R[1]!);
  }

  /**
   * Inserts INT32 values `values[start, end)` (or the bit patterns of FLOATs through an
   * `Int32Array` view of a `Float32Array`'s buffer, which keeps NaN payloads exact).
   * @param values - the values.
   * @param start - first index (default 0).
   * @param end - exclusive end index (default `values.length`).
   */
  insertInt32Values(values: Int32Array | Uint32Array, start = 0, end: number = values.length): void {
    for (let i = start; i < end; i++) {
      hashWord32(values[i]!);
      this.insertHash(R[0]!, R[1]!);
    }
  }

  /**
   * Inserts INT64 values `values[start, end)` (or DOUBLE bit patterns through a
   * `BigInt64Array` view of a `Float64Array`'s buffer). No BigInt is created: the
   * values are read as u32 word pairs through an alias of the same buffer.
   * @param values - the values.
   * @param start - first index (default 0).
   * @param end - exclusive end index (default `values.length`).
   */
  insertInt64Values(values: BigInt64Array | BigUint64Array, start = 0, end: number = values.length): void {
    const w = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    for (let i = start; i < end; i++) {
      hashWord64(w[2 * i]!, w[2 * i + 1]!);
      this.insertHash(R[0]!, R[1]!);
    }
  }

  /**
   * Inserts FLOAT values `values[start, end)` by their exact bit patterns.
   * @param values - the values.
   * @param start - first index (default 0).
   * @param end - exclusive end index (default `values.length`).
   */
  insertFloatValues(values: Float32Array, start = 0, end: number = values.length): void {
    this.insertInt32Values(new Int32Array(values.buffer, values.byteOffset, values.length), start, end);
  }

  /**
   * Inserts DOUBLE values `values[start, end)` by their exact bit patterns.
   * @param values - the values.
   * @param start - first index (default 0).
   * @param end - exclusive end index (default `values.length`).
   */
  insertDoubleValues(values: Float64Array, start = 0, end: number = values.length): void {
    const w = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    for (let i = start; i < end; i++) {
      hashWord64(w[2 * i]!, w[2 * i + 1]!);
      this.insertHash(R[0]!, R[1]!);
    }
  }

  /**
   * Inserts BYTE_ARRAY values laid out as `data[offsets[i], offsets[i+1])` for
   * `i` in `[start, end)` (the `ByteArrays` shape of @parquetry/parquet-encodings).
   * @param offsets - `count + 1` offsets into `data`, non-decreasing.
   * @param data - the concatenated value bytes.
   * @param start - first value index (default 0).
   * @param end - exclusive end value index (default `offsets.length - 1`).
   * @throws ParquetError `BLOOM_INVALID_ARGUMENT` when an offset pair is outside `data` or decreasing.
   */
  insertByteArrayValues(offsets: Int32Array | Uint32Array, data: Uint8Array, start = 0, end: number = offsets.length - 1): void {
    const n = data.length;
    for (let i = start; i < end; i++) {
      const a = offsets[i]!;
      const b = offsets[i + 1]!;
      if (!(a >= 0 && b >= a && b <= n)) {
        throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: byte array ${i} spans [${a}, ${b}) outside data of ${n} bytes`);
      }
      hashBytes(data, a, b - a);
      this.insertHash(R[0]!, R[1]!);
    }
  }

  /**
   * Inserts FIXED_LEN_BYTE_ARRAY (or INT96, width 12) values packed back to back.
   * @param data - `count * width` bytes.
   * @param width - bytes per value (> 0).
   * @throws ParquetError `BLOOM_INVALID_ARGUMENT` when `width` is not a positive integer.
   */
  insertFixedLenValues(data: Uint8Array, width: number): void {
    if (!(Number.isInteger(width) && width > 0)) {
      throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: fixed width must be a positive integer, got ${width}`);
    }
    const end = data.length - width;
    for (let p = 0; p <= end; p += width) {
      hashBytes(data, p, width);
      this.insertHash(R[0]!, R[1]!);
    }
  }
}

function checkRange(src: Uint8Array, pos: number, len: number): void {
  if (!(pos >= 0 && len >= 0 && pos + len <= src.length && Number.isInteger(pos) && Number.isInteger(len))) {
    throw new ParquetError('BLOOM_INVALID_ARGUMENT', `parquet-bloom: range [${pos}, ${pos + len}) is outside a buffer of ${src.length} bytes`);
  }
}
