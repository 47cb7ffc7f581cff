/**
 * DELTA_BINARY_PACKED (Encodings.md, "Delta Encoding (DELTA_BINARY_PACKED = 5)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-encoding-delta_binary_packed--5
 *
 * ```
 * <header> <block>*
 * header: <block size in values> <number of miniblocks in a block> <total value count> <first value>
 *         (ULEB128, ULEB128, ULEB128, zigzag ULEB128)
 * block:  <min delta (zigzag ULEB128)> <bit width of each miniblock (1 byte each)> <miniblocks>
 * ```
 * Block size is a multiple of 128, values per miniblock a multiple of 32; miniblocks are bit-packed
 * LSB first like the hybrid's bit-packed runs. Arithmetic wraps around (two's complement) in both
 * directions. INT32 uses 32-bit arithmetic; INT64 moves as lo/hi 32-bit words (no BigInt per value).
 * Bit widths: up to 32 for INT32, up to 64 for INT64.
 *
 * @module
 */
import { ByteReader, Type, type ByteWriter } from '@parquetry/thrift-compact';
import { PACK } from './bit-pack-encode-kernels.js';
import { orBits, read32At, unpackN } from './bit-util.js';
import { UNPACK_DELTA } from './delta-kernels.js';
import { encodingError, truncated } from './errors.js';
import type { ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

const TWO_32 = 4294967296;

/** Largest accepted values-per-miniblock (bounds scratch allocations; writers use 32–512). */
const MAX_MINIBLOCK = 1 << 16;

/** A decoded DELTA_BINARY_PACKED header. */
export interface DeltaHeader {
  /** Values per block (multiple of 128). */
  blockSize: number;
  /** Miniblocks per block. */
  miniblocks: number;
  /** Total number of values encoded. */
  total: number;
  /** First value, low 32 bits (unsigned). */
  firstLo: number;
  /** First value, high 32 bits (signed). */
  firstHi: number;
  /** Position of the first block. */
  pos: number;
}

/**
 * Reads and validates a DELTA_BINARY_PACKED header.
 * @param src - the encoded bytes.
 * @param pos - first byte of the header.
 * @param end - exclusive end.
 * @returns the header fields and the position after them.
 * @throws ParquetError `ENCODING_CORRUPT` for block sizes that break the spec's rules, `EOF`/`VARINT_TOO_LONG` for bad varints.
 */
export function readDeltaHeader(src: Uint8Array, pos: number, end: number): DeltaHeader {
  if (!(pos >= 0 && pos <= end && end <= src.length)) throw encodingError('ENCODING_ARGUMENT', `DELTA_BINARY_PACKED: invalid range [${pos}, ${end}) of ${src.length}`, pos);
  if (pos >= end) truncated('DELTA_BINARY_PACKED: header', pos, 4, end);
  const r = new ByteReader(src, pos, end);
  const blockSize = r.uleb32();
  const miniblocks = r.uleb32();
  const total = r.uleb32();
  r.zigzag64();
  const miniSize = blockSize / miniblocks;
  if (blockSize === 0 || blockSize % 128 !== 0 || miniblocks === 0 || !Number.isInteger(miniSize) || miniSize % 32 !== 0) {
    throw encodingError('ENCODING_CORRUPT', `DELTA_BINARY_PACKED: header at byte ${pos}: block size ${blockSize} with ${miniblocks} miniblocks (block size must be a multiple of 128, values per miniblock a multiple of 32)`, pos);
  }
  if (miniSize > MAX_MINIBLOCK) {
    throw encodingError('ENCODING_UNSUPPORTED', `DELTA_BINARY_PACKED: header at byte ${pos}: ${miniSize} values per miniblock exceeds the supported ${MAX_MINIBLOCK}`, pos);
  }
  return { blockSize, miniblocks, total, firstLo: r.lo, firstHi: r.hi, pos: r.pos };
}

function checkTotal(h: DeltaHeader, start: number, end: number, count: number): void {
  if (h.total !== count) {
    throw encodingError('ENCODING_CORRUPT', `DELTA_BINARY_PACKED: header at byte ${start} declares ${h.total} values, expected ${count}`, start);
  }
  // every block costs at least 1 + miniblocks bytes: refuse counts the bytes cannot hold
  const maxBlocks = Math.floor((end - h.pos) / (1 + h.miniblocks));
  if (count > 1 && count - 1 > maxBlocks * h.blockSize) {
    truncated(`DELTA_BINARY_PACKED: ${count} values`, h.pos, Math.ceil((count - 1) / h.blockSize) * (1 + h.miniblocks), end);
  }
}

/** Bytes a miniblock of `n` needed values occupies, checking presence; returns bytes to advance. */
function miniblockBytes(p: number, end: number, miniSize: number, w: number, n: number): number {
  const bytes = (miniSize * w) >>> 3;
  if (bytes <= end - p) return bytes;
  // tolerate a last miniblock whose padding was not written, if the needed values are there
  const needed = Math.ceil((n * w) / 8);
  if (needed > end - p) truncated(`DELTA_BINARY_PACKED: miniblock of ${miniSize} values at width ${w}`, p, bytes, end);
  return end - p;
}

/** Unpacks the low 32 bits of `n` values of width `w` (33–64) packed LSB-first from `src[p]`, bytes past `end` as 0. */
function unpackLow32(src: Uint8Array, p: number, end: number, w: number, out: Int32Array, o: number, n: number): void {
  for (let k = 0; k < n; k++) {
    const bit = k * w;
    const b = p + (bit >>> 3);
    const sh = bit & 7;
    const b0 = b < end ? src[b]! : 0;
    const b1 = b + 1 < end ? src[b + 1]! : 0;
    const b2 = b + 2 < end ? src[b + 2]! : 0;
    const b3 = b + 3 < end ? src[b + 3]! : 0;
    let v = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
    if (sh !== 0) {
      const b4 = b + 4 < end ? src[b + 4]! : 0;
      v = (v >>> sh) | (b4 << (32 - sh));
    }
    out[o + k] = v;
  }
}

/**
 * Decodes `count` INT32 values of DELTA_BINARY_PACKED (32-bit wrap-around arithmetic).
 * @param src - the encoded bytes.
 * @param pos - first byte of the header.
 * @param end - exclusive end.
 * @param out - receives the values.
 * @param outPos - first index of `out` to fill.
 * @param count - number of values; must equal the header's total.
 * @returns the position after the last block.
 * @throws ParquetError `ENCODING_TRUNCATED`, `ENCODING_CORRUPT` (header rules, total ≠ count), `ENCODING_BIT_WIDTH` (width above 64).
 */
export function decodeDeltaBinaryPackedInt32(src: Uint8Array, pos: number, end: number, out: Int32Array, outPos: number, count: number): number {
  if (!(outPos >= 0 && count >= 0 && outPos + count <= out.length)) throw encodingError('ENCODING_ARGUMENT', `DELTA_BINARY_PACKED: output of ${out.length} too small for ${count} values at ${outPos}`, pos);
  const h = readDeltaHeader(src, pos, end);
  checkTotal(h, pos, end, count);
  let p = h.pos;
  if (count === 0) return p;
  const miniSize = h.blockSize / h.miniblocks;
  const mbs = h.miniblocks;
  let v = h.firstLo | 0;
  let o = outPos;
  out[o++] = v;
  let remaining = count - 1;
  const r = new ByteReader(src, p, end);
  while (remaining > 0) {
    r.pos = p;
    if (p >= end) truncated(`DELTA_BINARY_PACKED: block header for ${remaining} more values`, p, 1 + mbs, end);
    r.zigzag64();
    const minDelta = r.lo | 0;
    p = r.pos;
    if (end - p < mbs) truncated('DELTA_BINARY_PACKED: miniblock bit widths', p, mbs, end);
    const wp = p;
    p += mbs;
    for (let m = 0; m < mbs && remaining > 0; m++) {
      const w = src[wp + m]!;
      if (w > 64) throw encodingError('ENCODING_BIT_WIDTH', `DELTA_BINARY_PACKED: INT32 miniblock bit width ${w} at byte ${wp + m} exceeds 64`, wp + m);
      const n = remaining < miniSize ? remaining : miniSize;
      const full = (miniSize * w) >>> 3;
      const adv = full <= end - p ? full : miniblockBytes(p, end, miniSize, w, n);
      if (w > 32) {
        // Some writers (DuckDB) compute INT32 deltas in 64 bits, so a delta can need 33 bits. Arithmetic is
        // modulo 2^32, so only the low 32 bits of each packed delta matter.
        unpackLow32(src, p, p + adv, w, out, o, n);
        const stop = o + n;
        for (let k = o; k < stop; k++) {
          v = (v + minDelta + out[k]!) | 0;
          out[k] = v;
        }
      } else if (w === 0) {
        for (let k = 0; k < n; k++) {
          v = (v + minDelta) | 0;
          out[o + k] = v;
        }
      } else {
        if ((n & 7) === 0 && adv === full) {
          // whole groups present (the common case): the width's kernel unpacks and accumulates in one pass
          v = UNPACK_DELTA[w]!(src, p, out, o, n >>> 3, v, minDelta);
        } else {
          unpackN(src, p, end, w, out, o, n);
          const stop = o + n;
          for (let k = o; k < stop; k++) {
            v = (v + minDelta + out[k]!) | 0;
            out[k] = v;
          }
        }
      }
      o += n;
      p += adv;
      remaining -= n;
    }
  }
  return p;
}

/**
 * Decodes `count` INT64 values of DELTA_BINARY_PACKED into a BigInt64Array (64-bit wrap-around
 * arithmetic on 32-bit words; no BigInt is created).
 * @param src - the encoded bytes.
 * @param pos - first byte of the header.
 * @param end - exclusive end.
 * @param out - receives the values.
 * @param outPos - first index of `out` to fill.
 * @param count - number of values; must equal the header's total.
 * @returns the position after the last block.
 * @throws ParquetError `ENCODING_TRUNCATED`, `ENCODING_CORRUPT` (header rules, total ≠ count), `ENCODING_BIT_WIDTH` (width above 64).
 */
export function decodeDeltaBinaryPackedInt64(src: Uint8Array, pos: number, end: number, out: BigInt64Array, outPos: number, count: number): number {
  if (!(outPos >= 0 && count >= 0 && outPos + count <= out.length)) throw encodingError('ENCODING_ARGUMENT', `DELTA_BINARY_PACKED: output of ${out.length} too small for ${count} values at ${outPos}`, pos);
  const h = readDeltaHeader(src, pos, end);
  checkTotal(h, pos, end, count);
  let p = h.pos;
  if (count === 0) return p;
  const o32 = new Int32Array(out.buffer, out.byteOffset, out.length * 2);
  const miniSize = h.blockSize / h.miniblocks;
  const mbs = h.miniblocks;
  const lo32 = new Int32Array(miniSize);
  let vlo = h.firstLo >>> 0;
  let vhi = h.firstHi | 0;
  let o = outPos * 2;
  o32[o] = vlo;
  o32[o + 1] = vhi;
  o += 2;
  let remaining = count - 1;
  const r = new ByteReader(src, p, end);
  while (remaining > 0) {
    r.pos = p;
    if (p >= end) truncated(`DELTA_BINARY_PACKED: block header for ${remaining} more values`, p, 1 + mbs, end);
    r.zigzag64();
    const mlo = r.lo >>> 0;
    const mhi = r.hi | 0;
    p = r.pos;
    if (end - p < mbs) truncated('DELTA_BINARY_PACKED: miniblock bit widths', p, mbs, end);
    const wp = p;
    p += mbs;
    for (let m = 0; m < mbs && remaining > 0; m++) {
      const w = src[wp + m]!;
      if (w > 64) throw encodingError('ENCODING_BIT_WIDTH', `DELTA_BINARY_PACKED: INT64 miniblock bit width ${w} at byte ${wp + m} exceeds 64`, wp + m);
      const n = remaining < miniSize ? remaining : miniSize;
      const adv = miniblockBytes(p, end, miniSize, w, n);
      if (w <= 32) {
        if (w === 0) lo32.fill(0, 0, n);
        else unpackN(src, p, end, w, lo32, 0, n);
        for (let k = 0; k < n; k++) {
          // v += minDelta + u   (mod 2^64), u < 2^32
          const s = vlo + mlo + (lo32[k]! >>> 0);
          const lo = s >>> 0;
          vhi = (vhi + mhi + (s - lo) / TWO_32) | 0;
          vlo = lo;
          o32[o] = vlo;
          o32[o + 1] = vhi;
          o += 2;
        }
      } else {
        const hw = w - 32;
        const hmask = hw === 32 ? -1 : (1 << hw) - 1;
        const stop = p + adv;
        for (let k = 0; k < n; k++) {
          const bit = k * w;
          const ulo = read32At(src, stop, p, bit);
          const uhi = read32At(src, stop, p, bit + 32) & hmask;
          const s = vlo + mlo + ulo;
          const lo = s >>> 0;
          vhi = (vhi + mhi + uhi + (s - lo) / TWO_32) | 0;
          vlo = lo;
          o32[o] = vlo;
          o32[o + 1] = vhi;
          o += 2;
        }
      }
      p += adv;
      remaining -= n;
    }
  }
  return p;
}

function writeMiniblockWidths(w: ByteWriter, widths: Uint8Array, mbs: number): void {
  w.ensureSpare(mbs);
  w.buf.set(widths.subarray(0, mbs), w.pos);
  w.pos += mbs;
}

/** Default block layout: 128 values per block in 4 miniblocks of 32 (what parquet-mr and arrow write). */
const BLOCK = 128;
const MINIBLOCKS = 4;
const MINI = BLOCK / MINIBLOCKS;

/**
 * Encodes INT32 values as DELTA_BINARY_PACKED (blocks of 128 values, 4 miniblocks of 32, 32-bit wrap-around deltas).
 * @param values - the values.
 * @param start - first index.
 * @param count - number of values.
 * @param w - receives the bytes.
 */
export function encodeDeltaBinaryPackedInt32(values: Int32Array, start: number, count: number, w: ByteWriter): void {
  w.uleb32(BLOCK);
  w.uleb32(MINIBLOCKS);
  w.uleb32(count);
  if (count === 0) {
    w.zigzag64(0, 0);
    return;
  }
  const first = values[start]!;
  w.zigzag64(first >>> 0, first >> 31);
  const u = new Int32Array(BLOCK);
  const widths = new Uint8Array(MINIBLOCKS);
  let prev = first;
  const end = start + count;
  for (let i = start + 1; i < end; i += BLOCK) {
    const n = Math.min(BLOCK, end - i);
    let min = 0x7fffffff;
    for (let k = 0; k < n; k++) {
      const v = values[i + k]!;
      const d = (v - prev) | 0;
      prev = v;
      u[k] = d;
      if (d < min) min = d;
    }
    for (let k = 0; k < n; k++) u[k] = u[k]! - min;
    u.fill(0, n);
    w.zigzag64(min >>> 0, min >> 31);
    const used = Math.ceil(n / MINI);
    widths.fill(0);
    for (let m = 0; m < used; m++) {
      let or = 0;
      for (let k = m * MINI; k < (m + 1) * MINI; k++) or |= u[k]!;
      widths[m] = 32 - Math.clz32(or);
    }
    writeMiniblockWidths(w, widths, MINIBLOCKS);
    for (let m = 0; m < used; m++) {
      const bw = widths[m]!;
      const bytes = (MINI * bw) >>> 3;
      w.ensureSpare(bytes);
      PACK[bw]!(u, m * MINI, w.buf, w.pos, MINI >>> 3);
      w.pos += bytes;
    }
  }
}

/**
 * Encodes INT64 values as DELTA_BINARY_PACKED (blocks of 128, 4 miniblocks of 32, 64-bit
 * wrap-around deltas on 32-bit words; miniblock widths up to 64).
 * @param values - the values.
 * @param start - first index.
 * @param count - number of values.
 * @param w - receives the bytes.
 */
export function encodeDeltaBinaryPackedInt64(values: BigInt64Array, start: number, count: number, w: ByteWriter): void {
  w.uleb32(BLOCK);
  w.uleb32(MINIBLOCKS);
  w.uleb32(count);
  if (count === 0) {
    w.zigzag64(0, 0);
    return;
  }
  const v32 = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  let plo = v32[2 * start]! >>> 0;
  let phi = v32[2 * start + 1]! | 0;
  w.zigzag64(plo, phi);
  const dlo = new Int32Array(BLOCK);
  const dhi = new Int32Array(BLOCK);
  const widths = new Uint8Array(MINIBLOCKS);
  const end = start + count;
  for (let i = start + 1; i < end; i += BLOCK) {
    const n = Math.min(BLOCK, end - i);
    let minLo = 0xffffffff;
    let minHi = 0x7fffffff;
    for (let k = 0; k < n; k++) {
      const lo = v32[2 * (i + k)]! >>> 0;
      const hi = v32[2 * (i + k) + 1]! | 0;
      // d = v - prev (mod 2^64)
      const borrow = lo < plo ? 1 : 0;
      const d_lo = (lo - plo) >>> 0;
      const d_hi = (hi - phi - borrow) | 0;
      dlo[k] = d_lo;
      dhi[k] = d_hi;
      if (d_hi < minHi || (d_hi === minHi && d_lo < minLo)) {
        minHi = d_hi;
        minLo = d_lo;
      }
      plo = lo;
      phi = hi;
    }
    // u = d - min (mod 2^64), non-negative
    for (let k = 0; k < n; k++) {
      const a = dlo[k]! >>> 0;
      const borrow = a < minLo ? 1 : 0;
      dlo[k] = (a - minLo) >>> 0;
      dhi[k] = (dhi[k]! - minHi - borrow) | 0;
    }
    dlo.fill(0, n);
    dhi.fill(0, n);
    w.zigzag64(minLo, minHi);
    const used = Math.ceil(n / MINI);
    widths.fill(0);
    for (let m = 0; m < used; m++) {
      let orLo = 0;
      let orHi = 0;
      for (let k = m * MINI; k < (m + 1) * MINI; k++) {
        orLo |= dlo[k]!;
        orHi |= dhi[k]!;
      }
      widths[m] = orHi !== 0 ? 64 - Math.clz32(orHi) : 32 - Math.clz32(orLo);
    }
    writeMiniblockWidths(w, widths, MINIBLOCKS);
    for (let m = 0; m < used; m++) {
      const bw = widths[m]!;
      const bytes = (MINI * bw) >>> 3;
      w.ensureSpare(bytes);
      if (bw <= 32) {
        PACK[bw]!(dlo, m * MINI, w.buf, w.pos, MINI >>> 3);
      } else {
        w.buf.fill(0, w.pos, w.pos + bytes);
        for (let k = 0; k < MINI; k++) {
          orBits(w.buf, w.pos, k * bw, dlo[m * MINI + k]!, 32);
          orBits(w.buf, w.pos, k * bw + 32, dhi[m * MINI + k]!, bw - 32);
        }
      }
      w.pos += bytes;
    }
  }
}

/** The decoding half of {@link deltaBinaryPackedCodec}: what a reader registers, with no encoder reachable from it. */
export const deltaBinaryPackedDecoder: ValueDecoder = {
  encoding: 5,
  name: 'DELTA_BINARY_PACKED',
  supports: (type) => type === Type.INT32 || type === Type.INT64,
  decode(src, pos, end, count, column) {
    const h = readDeltaHeader(src, pos, end);
    checkTotal(h, pos, end, count);
    if (column.type === Type.INT64) {
      const out = new BigInt64Array(count);
      return { values: out, pos: decodeDeltaBinaryPackedInt64(src, pos, end, out, 0, count) };
    }
    const out = new Int32Array(count);
    return { values: out, pos: decodeDeltaBinaryPackedInt32(src, pos, end, out, 0, count) };
  },
};

/** DELTA_BINARY_PACKED, for INT32 and INT64. */
export const deltaBinaryPackedCodec: ValueCodec = /*#__PURE__*/ withEncoder(deltaBinaryPackedDecoder, function encode(values, column, w) {
  if (column.type === Type.INT64 && values instanceof BigInt64Array) encodeDeltaBinaryPackedInt64(values, 0, values.length, w);
  else if (column.type === Type.INT32 && values instanceof Int32Array) encodeDeltaBinaryPackedInt32(values, 0, values.length, w);
  else throw encodingError('ENCODING_ARGUMENT', `DELTA_BINARY_PACKED: values do not match physical type ${column.type}`);
});
