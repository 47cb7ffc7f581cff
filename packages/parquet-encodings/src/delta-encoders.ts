/**
 * Streaming DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encoders (Encodings.md,
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-encoding-delta_binary_packed--5 and the
 * two sections after it) for `createValueEncoder`.
 *
 * The integers are buffered and encoded at flush by the one-shot encoders (blocks of 128 values, 4 miniblocks of 32),
 * so the bytes are theirs. The size is known without encoding: a block's bytes are its zigzag minimum delta, 4 width
 * bytes and 4 · w bytes per used miniblock, where w is the bit width of (miniblock's largest delta − block's smallest
 * delta). Each complete block is measured once when its last value arrives, the open block (< 128 deltas) when the
 * size is asked, so `estimatedSize()` is exact and costs at most one block scan.
 *
 * @module
 */
import { Encoding, Type, type ByteWriter } from '@parquetry/thrift-compact';
import { encodeDeltaBinaryPackedInt32, encodeDeltaBinaryPackedInt64 } from './delta-binary-packed.js';
import { checkBatch, growBytes, growInt32, ulebLen, zigzag64Len } from './encoder-input.js';
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from './types.js';
import type { ValueEncoder } from './value-encoder.js';

/** Values per block and per miniblock of the one-shot encoders. */
const BLOCK = 128;

/** Header bytes: block size 128 (2), 4 miniblocks (1), the count, the zigzag first value. */
function headerLen(count: number, firstLo: number, firstHi: number): number {
  return 3 + ulebLen(count) + (count === 0 ? 1 : zigzag64Len(firstLo, firstHi));
}

const mmax32 = /*#__PURE__*/ new Int32Array(4);
const maxLo64 = /*#__PURE__*/ new Uint32Array(4);
const maxHi64 = /*#__PURE__*/ new Int32Array(4);

/** Bytes of the block whose deltas are `v[i] − v[i − 1]` for i in `[s, s + n)` (INT32, 32-bit wrap-around). */
function blockLen32(v: Int32Array, s: number, n: number): number {
  let min = 0x7fffffff;
  const used = (n + 31) >>> 5;
  for (let m = 0; m < used; m++) {
    const a = s + 32 * m;
    const e = Math.min(s + n, a + 32);
    let max = -0x80000000;
    let prev = v[a - 1]!;
    for (let i = a; i < e; i++) {
      const x = v[i]!;
      const d = (x - prev) | 0;
      prev = x;
      if (d < min) min = d;
      if (d > max) max = d;
    }
    mmax32[m] = max;
  }
  let bytes = ulebLen(((min << 1) ^ (min >> 31)) >>> 0) + 4;
  for (let m = 0; m < used; m++) {
    const u = mmax32[m]! - min; // 0 … 2^32 − 1
    bytes += 4 * (u === 0 ? 0 : 32 - Math.clz32(u));
  }
  return bytes;
}

/** {@link blockLen32} for INT64 values as lo/hi word pairs in `w` (64-bit wrap-around). */
function blockLen64(w: Int32Array, s: number, n: number): number {
  let minLo = 0xffffffff;
  let minHi = 0x7fffffff;
  const used = (n + 31) >>> 5;
  for (let m = 0; m < used; m++) {
    const a = s + 32 * m;
    const e = Math.min(s + n, a + 32);
    let xlo = 0;
    let xhi = -0x80000000;
    let plo = w[2 * a - 2]! >>> 0;
    let phi = w[2 * a - 1]! | 0;
    for (let i = a; i < e; i++) {
      const lo = w[2 * i]! >>> 0;
      const hi = w[2 * i + 1]! | 0;
      const dlo = (lo - plo) >>> 0;
      const dhi = (hi - phi - (lo < plo ? 1 : 0)) | 0;
      plo = lo;
      phi = hi;
      if (dhi < minHi || (dhi === minHi && dlo < minLo)) {
        minLo = dlo;
        minHi = dhi;
      }
      if (dhi > xhi || (dhi === xhi && dlo > xlo)) {
        xlo = dlo;
        xhi = dhi;
      }
    }
    maxLo64[m] = xlo;
    maxHi64[m] = xhi;
  }
  let bytes = zigzag64Len(minLo, minHi) + 4;
  for (let m = 0; m < used; m++) {
    const xlo = maxLo64[m]!;
    const ulo = (xlo - minLo) >>> 0;
    const uhi = (maxHi64[m]! - minHi - (xlo < minLo ? 1 : 0)) | 0;
    bytes += 4 * (uhi !== 0 ? 64 - Math.clz32(uhi) : ulo === 0 ? 0 : 32 - Math.clz32(ulo));
  }
  return bytes;
}

/**
 * Exact DELTA_BINARY_PACKED size of a growing buffer of values: complete 128-delta blocks are measured once
 * (`sync`), the open block (< 128 deltas) when asked (`size`), so both are O(1) per value.
 */
class DeltaSize {
  private blocks = 0;
  private done = 0;
  /** @param wide - values are INT64 word pairs. */
  constructor(private readonly wide: boolean) {}
  /** Measures every complete block among the first `n` values of `v` (INT32, or INT64 as word pairs). */
  sync(v: Int32Array, n: number): void {
    while (1 + (this.blocks + 1) * BLOCK <= n) {
      const s = 1 + this.blocks * BLOCK;
      this.done += this.wide ? blockLen64(v, s, BLOCK) : blockLen32(v, s, BLOCK);
      this.blocks++;
    }
  }
  /** @returns the bytes the one-shot encoder writes for the first `n` values of `v` (after `sync(v, n)`). */
  size(v: Int32Array, n: number): number {
    if (n === 0) return headerLen(0, 0, 0);
    const header = this.wide ? headerLen(n, v[0]!, v[1]!) : headerLen(n, v[0]!, v[0]! >> 31);
    const s = 1 + this.blocks * BLOCK;
    const rest = n - s;
    return header + this.done + (rest > 0 ? (this.wide ? blockLen64(v, s, rest) : blockLen32(v, s, rest)) : 0);
  }
  /** Forgets every value. */
  reset(): void {
    this.blocks = 0;
    this.done = 0;
  }
}

/** DELTA_BINARY_PACKED for INT32 and INT64: values buffered, encoded at flush. */
export class DeltaBinaryPackedEncoder implements ValueEncoder {
  readonly encoding = Encoding.DELTA_BINARY_PACKED;
  private buf = new Uint8Array(1024);
  /** The buffer as 32-bit words (INT64: lo/hi pairs). */
  private words = new Int32Array(this.buf.buffer);
  private n = 0;
  private readonly sizes: DeltaSize;
  private readonly wide: boolean;
  /** @param type - INT32 or INT64. */
  constructor(private readonly type: number) {
    this.wide = type === Type.INT64;
    this.sizes = new DeltaSize(this.wide);
  }
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('DELTA_BINARY_PACKED', values, this.type, 0, start, end);
    const v = values as Int32Array | BigInt64Array;
    const k = this.wide ? 8 : 4;
    const have = this.n * k;
    const buf = growBytes(this.buf, have, have + (end - start) * k);
    if (buf !== this.buf) {
      this.buf = buf;
      this.words = new Int32Array(buf.buffer);
    }
    buf.set(new Uint8Array(v.buffer, v.byteOffset + start * k, (end - start) * k), have);
    this.n += end - start;
    this.sizes.sync(this.words, this.n);
  }
  estimatedSize(): number {
    return this.sizes.size(this.words, this.n);
  }
  flush(w: ByteWriter): void {
    const n = this.n;
    if (this.wide) encodeDeltaBinaryPackedInt64(new BigInt64Array(this.buf.buffer, 0, n), 0, n, w);
    else encodeDeltaBinaryPackedInt32(this.words, 0, n, w);
    this.n = 0;
    this.sizes.reset();
  }
}

/** DELTA_LENGTH_BYTE_ARRAY: lengths buffered (DELTA_BINARY_PACKED at flush), bytes appended as they arrive. */
export class DeltaLengthByteArrayEncoder implements ValueEncoder {
  readonly encoding = Encoding.DELTA_LENGTH_BYTE_ARRAY;
  private lengths = new Int32Array(256);
  private data = new Uint8Array(1024);
  private dataLen = 0;
  private n = 0;
  private readonly sizes = new DeltaSize(false);
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('DELTA_LENGTH_BYTE_ARRAY', values, Type.BYTE_ARRAY, 0, start, end);
    const { offsets, data } = values as ByteArrays;
    const n = this.n;
    const lengths = (this.lengths = growInt32(this.lengths, n, n + end - start));
    for (let i = start, j = n; i < end; i++, j++) lengths[j] = offsets[i + 1]! - offsets[i]!;
    this.n = n + end - start;
    this.sizes.sync(lengths, this.n);
    const bytes = data.subarray(offsets[start]!, offsets[end]!);
    this.data = growBytes(this.data, this.dataLen, this.dataLen + bytes.length);
    this.data.set(bytes, this.dataLen);
    this.dataLen += bytes.length;
  }
  estimatedSize(): number {
    return this.sizes.size(this.lengths, this.n) + this.dataLen;
  }
  flush(w: ByteWriter): void {
    encodeDeltaBinaryPackedInt32(this.lengths, 0, this.n, w);
    w.bytes(this.data.subarray(0, this.dataLen));
    this.dataLen = 0;
    this.n = 0;
    this.sizes.reset();
  }
}

/**
 * DELTA_BYTE_ARRAY for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: each value's prefix shared with the previous value is
 * found as it arrives; prefix and suffix lengths are buffered (DELTA_BINARY_PACKED at flush), suffix bytes appended.
 * The previous value is kept in its own buffer, of which only the suffix is rewritten per value.
 */
export class DeltaByteArrayEncoder implements ValueEncoder {
  readonly encoding = Encoding.DELTA_BYTE_ARRAY;
  private prefixes = new Int32Array(256);
  private suffixes = new Int32Array(256);
  private data = new Uint8Array(1024);
  private dataLen = 0;
  private prev = new Uint8Array(64);
  private prevLen = 0;
  private n = 0;
  private readonly prefixSizes = new DeltaSize(false);
  private readonly suffixSizes = new DeltaSize(false);
  /**
   * @param type - BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
   * @param width - the FIXED_LEN_BYTE_ARRAY type length.
   */
  constructor(
    private readonly type: number,
    private readonly width: number,
  ) {}
  get count(): number {
    return this.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('DELTA_BYTE_ARRAY', values, this.type, this.width, start, end);
    const src = (values as ByteArrays | FixedLenByteArrays).data;
    const offsets = 'offsets' in values ? values.offsets : null;
    const width = this.width;
    const n = this.n;
    const prefixes = (this.prefixes = growInt32(this.prefixes, n, n + end - start));
    const suffixes = (this.suffixes = growInt32(this.suffixes, n, n + end - start));
    const total = offsets === null ? (end - start) * width : offsets[end]! - offsets[start]!;
    const data = (this.data = growBytes(this.data, this.dataLen, this.dataLen + total));
    let p = this.dataLen;
    let prev = this.prev;
    let prevLen = this.prevLen;
    for (let i = start, j = n; i < end; i++, j++) {
      const a = offsets === null ? i * width : offsets[i]!;
      const len = offsets === null ? width : offsets[i + 1]! - a;
      const max = len < prevLen ? len : prevLen;
      let pre = 0;
      while (pre < max && prev[pre] === src[a + pre]) pre++;
      prefixes[j] = pre;
      suffixes[j] = len - pre;
      if (len > prev.length) prev = this.prev = growBytes(prev, pre, len);
      if (len - pre < 32) {
        for (let k = pre; k < len; k++) prev[k] = data[p++] = src[a + k]!;
      } else {
        const tail = src.subarray(a + pre, a + len);
        prev.set(tail, pre);
        data.set(tail, p);
        p += len - pre;
      }
      prevLen = len;
    }
    this.prevLen = prevLen;
    this.dataLen = p;
    this.n = n + end - start;
    this.prefixSizes.sync(prefixes, this.n);
    this.suffixSizes.sync(suffixes, this.n);
  }
  estimatedSize(): number {
    return this.prefixSizes.size(this.prefixes, this.n) + this.suffixSizes.size(this.suffixes, this.n) + this.dataLen;
  }
  flush(w: ByteWriter): void {
    encodeDeltaBinaryPackedInt32(this.prefixes, 0, this.n, w);
    encodeDeltaBinaryPackedInt32(this.suffixes, 0, this.n, w);
    w.bytes(this.data.subarray(0, this.dataLen));
    this.dataLen = 0;
    this.prevLen = 0;
    this.n = 0;
    this.prefixSizes.reset();
    this.suffixSizes.reset();
  }
}
