/**
 * Streaming DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encoders (Encodings.md,
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-encoding-delta_binary_packed--5 and the
 * two sections after it) for `createValueEncoder`.
 *
 * The integers are buffered and encoded at flush by the one-shot encoders (blocks of 128 values, 4 miniblocks of 32),
 * so the bytes are theirs. The size is known without encoding: a block's bytes are its zigzag minimum delta, 4 width
 * bytes and 4 · w bytes per used miniblock, where w is the bit width of (miniblock's largest delta − block's smallest
 * delta). Keeping the block minimum and four miniblock maxima per value makes `estimatedSize()` exact and O(1).
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

/** Exact DELTA_BINARY_PACKED size of a stream of INT32 values, updated per value. */
class DeltaSize32 {
  /** Values seen. */
  n = 0;
  private first = 0;
  private prev = 0;
  /** Deltas in the open block, its minimum and its miniblocks' maxima. */
  private bn = 0;
  private bmin = 0;
  private readonly mmax = new Int32Array(4);
  /** Bytes of the closed blocks. */
  private done = 0;

  /** Adds the next value. */
  add(v: number): void {
    if (this.n++ === 0) {
      this.first = v;
      this.prev = v;
      return;
    }
    const d = (v - this.prev) | 0;
    this.prev = v;
    const bn = this.bn;
    const m = bn >>> 5;
    if (bn === 0 || d < this.bmin) this.bmin = d;
    if ((bn & 31) === 0 || d > this.mmax[m]!) this.mmax[m] = d;
    if (bn === BLOCK - 1) {
      this.done += this.blockLen(BLOCK);
      this.bn = 0;
    } else this.bn = bn + 1;
  }
  private blockLen(n: number): number {
    const min = this.bmin;
    let s = ulebLen(((min << 1) ^ (min >> 31)) >>> 0) + 4;
    for (let m = 0; m < (n + 31) >>> 5; m++) {
      const u = this.mmax[m]! - min; // 0 … 2^32 − 1
      s += 4 * (u === 0 ? 0 : 32 - Math.clz32(u));
    }
    return s;
  }
  /** @returns the bytes the one-shot encoder writes for the values seen. */
  size(): number {
    return headerLen(this.n, this.first, this.first >> 31) + this.done + (this.bn > 0 ? this.blockLen(this.bn) : 0);
  }
  /** Forgets every value. */
  reset(): void {
    this.n = 0;
    this.bn = 0;
    this.done = 0;
  }
}

/** Exact DELTA_BINARY_PACKED size of a stream of INT64 values (as lo/hi words), updated per value. */
class DeltaSize64 {
  n = 0;
  private firstLo = 0;
  private firstHi = 0;
  private plo = 0;
  private phi = 0;
  private bn = 0;
  private minLo = 0;
  private minHi = 0;
  private readonly maxLo = new Uint32Array(4);
  private readonly maxHi = new Int32Array(4);
  private done = 0;

  /** Adds the next value: `lo` unsigned low word, `hi` signed high word. */
  add(lo: number, hi: number): void {
    if (this.n++ === 0) {
      this.firstLo = this.plo = lo;
      this.firstHi = this.phi = hi;
      return;
    }
    const dlo = (lo - this.plo) >>> 0;
    const dhi = (hi - this.phi - (lo < this.plo ? 1 : 0)) | 0;
    this.plo = lo;
    this.phi = hi;
    const bn = this.bn;
    const m = bn >>> 5;
    if (bn === 0 || dhi < this.minHi || (dhi === this.minHi && dlo < this.minLo)) {
      this.minLo = dlo;
      this.minHi = dhi;
    }
    const xh = this.maxHi[m]!;
    if ((bn & 31) === 0 || dhi > xh || (dhi === xh && dlo > this.maxLo[m]!)) {
      this.maxLo[m] = dlo;
      this.maxHi[m] = dhi;
    }
    if (bn === BLOCK - 1) {
      this.done += this.blockLen(BLOCK);
      this.bn = 0;
    } else this.bn = bn + 1;
  }
  private blockLen(n: number): number {
    const mlo = this.minLo;
    const mhi = this.minHi;
    let s = zigzag64Len(mlo, mhi) + 4;
    for (let m = 0; m < (n + 31) >>> 5; m++) {
      const xlo = this.maxLo[m]!;
      const ulo = (xlo - mlo) >>> 0;
      const uhi = (this.maxHi[m]! - mhi - (xlo < mlo ? 1 : 0)) | 0;
      s += 4 * (uhi !== 0 ? 64 - Math.clz32(uhi) : ulo === 0 ? 0 : 32 - Math.clz32(ulo));
    }
    return s;
  }
  size(): number {
    return headerLen(this.n, this.firstLo, this.firstHi) + this.done + (this.bn > 0 ? this.blockLen(this.bn) : 0);
  }
  reset(): void {
    this.n = 0;
    this.bn = 0;
    this.done = 0;
  }
}

/** DELTA_BINARY_PACKED for INT32 and INT64: values buffered, encoded at flush. */
export class DeltaBinaryPackedEncoder implements ValueEncoder {
  readonly encoding = Encoding.DELTA_BINARY_PACKED;
  private buf = new Uint8Array(1024);
  private readonly s32 = new DeltaSize32();
  private readonly s64 = new DeltaSize64();
  private readonly wide: boolean;
  /** @param type - INT32 or INT64. */
  constructor(private readonly type: number) {
    this.wide = type === Type.INT64;
  }
  get count(): number {
    return this.wide ? this.s64.n : this.s32.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('DELTA_BINARY_PACKED', values, this.type, 0, start, end);
    const v = values as Int32Array | BigInt64Array;
    const k = this.wide ? 8 : 4;
    const have = this.count * k;
    this.buf = growBytes(this.buf, have, have + (end - start) * k);
    this.buf.set(new Uint8Array(v.buffer, v.byteOffset + start * k, (end - start) * k), have);
    if (this.wide) {
      const w32 = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
      const s = this.s64;
      for (let i = start; i < end; i++) s.add(w32[2 * i]! >>> 0, w32[2 * i + 1]! | 0);
    } else {
      const s = this.s32;
      const a = v as Int32Array;
      for (let i = start; i < end; i++) s.add(a[i]!);
    }
  }
  estimatedSize(): number {
    return this.wide ? this.s64.size() : this.s32.size();
  }
  flush(w: ByteWriter): void {
    const n = this.count;
    if (this.wide) encodeDeltaBinaryPackedInt64(new BigInt64Array(this.buf.buffer, 0, n), 0, n, w);
    else encodeDeltaBinaryPackedInt32(new Int32Array(this.buf.buffer, 0, n), 0, n, w);
    this.s32.reset();
    this.s64.reset();
  }
}

/** DELTA_LENGTH_BYTE_ARRAY: lengths buffered (DELTA_BINARY_PACKED at flush), bytes appended as they arrive. */
export class DeltaLengthByteArrayEncoder implements ValueEncoder {
  readonly encoding = Encoding.DELTA_LENGTH_BYTE_ARRAY;
  private lengths = new Int32Array(256);
  private data = new Uint8Array(1024);
  private dataLen = 0;
  private readonly sizes = new DeltaSize32();
  get count(): number {
    return this.sizes.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('DELTA_LENGTH_BYTE_ARRAY', values, Type.BYTE_ARRAY, 0, start, end);
    const { offsets, data } = values as ByteArrays;
    const n = this.sizes.n;
    const lengths = (this.lengths = growInt32(this.lengths, n, n + end - start));
    for (let i = start, j = n; i < end; i++, j++) {
      const len = offsets[i + 1]! - offsets[i]!;
      lengths[j] = len;
      this.sizes.add(len);
    }
    const bytes = data.subarray(offsets[start]!, offsets[end]!);
    this.data = growBytes(this.data, this.dataLen, this.dataLen + bytes.length);
    this.data.set(bytes, this.dataLen);
    this.dataLen += bytes.length;
  }
  estimatedSize(): number {
    return this.sizes.size() + this.dataLen;
  }
  flush(w: ByteWriter): void {
    encodeDeltaBinaryPackedInt32(this.lengths, 0, this.sizes.n, w);
    w.bytes(this.data.subarray(0, this.dataLen));
    this.dataLen = 0;
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
  private readonly prefixSizes = new DeltaSize32();
  private readonly suffixSizes = new DeltaSize32();
  /**
   * @param type - BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
   * @param width - the FIXED_LEN_BYTE_ARRAY type length.
   */
  constructor(
    private readonly type: number,
    private readonly width: number,
  ) {}
  get count(): number {
    return this.prefixSizes.n;
  }
  put(values: ColumnValues, start: number, end: number): void {
    checkBatch('DELTA_BYTE_ARRAY', values, this.type, this.width, start, end);
    const fixed = 'width' in values;
    const src = (values as ByteArrays | FixedLenByteArrays).data;
    const offsets = fixed ? null : (values as ByteArrays).offsets;
    const width = this.width;
    const n = this.prefixSizes.n;
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
      this.prefixSizes.add(pre);
      this.suffixSizes.add(len - pre);
      if (len > prev.length) prev = this.prev = growBytes(prev, pre, len);
      for (let k = pre; k < len; k++) {
        const b = src[a + k]!;
        prev[k] = b;
        data[p++] = b;
      }
      prevLen = len;
    }
    this.prevLen = prevLen;
    this.dataLen = p;
  }
  estimatedSize(): number {
    return this.prefixSizes.size() + this.suffixSizes.size() + this.dataLen;
  }
  flush(w: ByteWriter): void {
    const n = this.prefixSizes.n;
    encodeDeltaBinaryPackedInt32(this.prefixes, 0, n, w);
    encodeDeltaBinaryPackedInt32(this.suffixes, 0, n, w);
    w.bytes(this.data.subarray(0, this.dataLen));
    this.dataLen = 0;
    this.prevLen = 0;
    this.prefixSizes.reset();
    this.suffixSizes.reset();
  }
}
