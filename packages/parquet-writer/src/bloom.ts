/**
 * Bloom filters of a column chunk: every value's XXH64 (seed 0) over its PLAIN encoding is collected once (a set of
 * 64-bit hashes, so the chunk's distinct-value count is known exactly), and at the end of the chunk a split-block
 * bloom filter is sized for that count — or for the NDV the caller gives — and the false-positive probability asked
 * for, by the spec's formula.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/BloomFilter.md ("Technical Approach", "Sizing",
 * "File Format": the filter is stored as a BloomFilterHeader followed by the bitset, located by
 * `bloom_filter_offset`/`bloom_filter_length`).
 * @module
 */
import { SplitBlockBloomFilter, optimalNumBytes, xxhash64, xxhash64Int32, xxhash64Int64 } from '@parquetry/parquet-bloom';
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import { ParquetError, Type } from '@parquetry/thrift-compact';

/** Bloom filter options of a column. */
export interface BloomFilterOptions {
  /** Distinct values to size for (default: the chunk's own distinct count). */
  ndv?: number;
  /** False-positive probability (default 0.01, as parquet-java). */
  fpp?: number;
  /** Largest filter in bytes (default 1 MiB, as parquet-java). */
  maxBytes?: number;
}

const EMPTY = 0;

/** Collects the hashes of one column chunk's values and builds its filter. */
export class BloomCollector {
  /** Open-addressing set of 64-bit hashes: two words per slot, (0, 0) marks an empty slot (its own flag below). */
  private slots = new Int32Array(2 * 1024);
  private size = 0;
  private hasZero = false;
  private readonly out = new Uint32Array(2);
  private readonly ndv: number | undefined;
  private readonly fpp: number;
  private readonly maxBytes: number;

  /**
   * @param type - the column's physical type.
   * @param options - sizing.
   * @throws ParquetError `INVALID_OPTION` for a BOOLEAN column or an out-of-range fpp/ndv.
   */
  constructor(
    readonly type: Type,
    options: BloomFilterOptions,
  ) {
    if (type === Type.BOOLEAN) throw new ParquetError('INVALID_OPTION', 'parquet-writer: bloom filters are not written for BOOLEAN columns (two values: the statistics say as much)');
    this.fpp = options.fpp ?? 0.01;
    if (!(this.fpp > 0 && this.fpp < 1)) throw new ParquetError('INVALID_OPTION', `parquet-writer: bloom filter fpp must be in (0, 1), got ${String(options.fpp)}`);
    if (options.ndv !== undefined && !(Number.isInteger(options.ndv) && options.ndv >= 0)) throw new ParquetError('INVALID_OPTION', `parquet-writer: bloom filter ndv must be a non-negative integer, got ${String(options.ndv)}`);
    this.ndv = options.ndv;
    this.maxBytes = options.maxBytes ?? 1 << 20;
  }

  private add(lo: number, hi: number): void {
    if (lo === EMPTY && hi === EMPTY) {
      this.hasZero = true;
      return;
    }
    let s = this.slots;
    let mask = (s.length >> 1) - 1;
    let i = (Math.imul(lo ^ hi, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const a = s[2 * i]!;
      const b = s[2 * i + 1]!;
      if (a === EMPTY && b === EMPTY) break;
      if (a === lo && b === hi) return;
      i = (i + 1) & mask;
    }
    s[2 * i] = lo;
    s[2 * i + 1] = hi;
    if (++this.size * 2 > mask + 1) {
      // grow to keep the load under one half
      const old = s;
      s = this.slots = new Int32Array(old.length * 2);
      mask = (s.length >> 1) - 1;
      for (let k = 0; k < old.length; k += 2) {
        const x = old[k]!;
        const y = old[k + 1]!;
        if (x === EMPTY && y === EMPTY) continue;
        let j = (Math.imul(x ^ y, 0x9e3779b1) >>> 0) & mask;
        while (s[2 * j] !== EMPTY || s[2 * j + 1] !== EMPTY) j = (j + 1) & mask;
        s[2 * j] = x;
        s[2 * j + 1] = y;
      }
    }
  }

  /**
   * Adds values `[start, end)` (physical, non-null).
   * @param values - the values.
   * @param start - first value.
   * @param end - end (exclusive).
   */
  update(values: ColumnValues, start: number, end: number): void {
    const out = this.out;
    switch (this.type) {
      case Type.INT32:
      case Type.FLOAT: {
        // FLOAT: the bits, as PLAIN stores them (no NaN canonicalisation)
        const t = values as Int32Array | Float32Array;
        const w = new Int32Array(t.buffer, t.byteOffset, t.length);
        for (let i = start; i < end; i++) {
          xxhash64Int32(w[i]!, out);
          this.add(out[0]! | 0, out[1]! | 0);
        }
        return;
      }
      case Type.INT64:
      case Type.DOUBLE: {
        const t = values as BigInt64Array | Float64Array;
        const w = new Int32Array(t.buffer, t.byteOffset, t.length * 2);
        for (let i = start; i < end; i++) {
          xxhash64Int64(w[2 * i]!, w[2 * i + 1]!, out);
          this.add(out[0]! | 0, out[1]! | 0);
        }
        return;
      }
      case Type.BYTE_ARRAY: {
        const { offsets, data } = values as ByteArrays;
        for (let i = start; i < end; i++) {
          xxhash64(data, offsets[i]!, offsets[i + 1]! - offsets[i]!, out);
          this.add(out[0]! | 0, out[1]! | 0);
        }
        return;
      }
      default: {
        const { width, data } = values as FixedLenByteArrays;
        for (let i = start; i < end; i++) {
          xxhash64(data, i * width, width, out);
          this.add(out[0]! | 0, out[1]! | 0);
        }
      }
    }
  }

  /** Distinct values seen (exact, by 64-bit hash). */
  get distinct(): number {
    return this.size + (this.hasZero ? 1 : 0);
  }

  /**
   * Builds the chunk's filter and forgets the hashes.
   * @returns the filter.
   */
  finish(): SplitBlockBloomFilter {
    const f = new SplitBlockBloomFilter(optimalNumBytes(this.ndv ?? this.distinct, this.fpp, this.maxBytes));
    if (this.hasZero) f.insertHash(0, 0);
    const s = this.slots;
    for (let k = 0; k < s.length; k += 2) {
      if (s[k] === EMPTY && s[k + 1] === EMPTY) continue;
      f.insertHash(s[k]! >>> 0, s[k + 1]! >>> 0);
    }
    this.slots = new Int32Array(2 * 1024);
    this.size = 0;
    this.hasZero = false;
    return f;
  }
}
