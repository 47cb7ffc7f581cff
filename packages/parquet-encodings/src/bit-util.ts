/**
 * Bit-packing helpers shared by DELTA_BINARY_PACKED and ALP: LSB-first packing (the order of the
 * RLE / bit-packing hybrid, https://github.com/apache/parquet-format/blob/master/Encodings.md#run-length-encoding--bit-packing-hybrid-rle--3)
 * of `n` values that need not fill whole groups of 8, and widths 33–64 as lo/hi 32-bit words.
 *
 * @module
 */
import { UNPACK } from './bit-pack-kernels.js';
import { UNPACK_WIDE } from './bit-pack-wide-kernels.js';
import { PACK } from './bit-pack-encode-kernels.js';

const scratch8 = /*#__PURE__*/ new Int32Array(8);
const scratchBytes = /*#__PURE__*/ new Uint8Array(40);

/**
 * Unpacks `n` values of width `w` (0–32) from `src[p…]` into `out[o…]`. Bytes of the last
 * partial group at or past `end` read as zero.
 */
export function unpackN(src: Uint8Array, p: number, end: number, w: number, out: Int32Array, o: number, n: number): void {
  const full = n >>> 3;
  // (widths 9–17, 24 and 32: unrolled once the read registry has put in bit-pack-mid-kernels.ts, which it does
  // when it loads the rare decoders)
  const kernel = UNPACK_WIDE[w] ?? UNPACK[w]!;
  kernel(src, p, out, o, full);
  const rest = n & 7;
  if (rest !== 0) {
    const gp = p + full * w;
    const avail = Math.max(0, Math.min(w, end - gp));
    scratchBytes.fill(0, 0, w);
    for (let k = 0; k < avail; k++) scratchBytes[k] = src[gp + k]!;
    kernel(scratchBytes, 0, scratch8, 0, 1);
    for (let k = 0; k < rest; k++) out[o + full * 8 + k] = scratch8[k]!;
  }
}

/**
 * Packs `n` values of width `w` (0–32) from `values[i…]` into exactly `ceil(n · w / 8)` bytes at `dst[p…]`.
 * @returns the number of bytes written.
 */
export function packN(values: Int32Array, i: number, n: number, w: number, dst: Uint8Array, p: number): number {
  const full = n >>> 3;
  const kernel = PACK[w]!;
  kernel(values, i, dst, p, full);
  const rest = n & 7;
  const bytes = Math.ceil((n * w) / 8);
  if (rest !== 0) {
    scratch8.fill(0);
    for (let k = 0; k < rest; k++) scratch8[k] = values[i + full * 8 + k]!;
    kernel(scratch8, 0, scratchBytes, 0, 1);
    const tail = bytes - full * w;
    for (let k = 0; k < tail; k++) dst[p + full * w + k] = scratchBytes[k]!;
  }
  return bytes;
}

/** Reads 32 bits starting at bit `bit` after byte `base` (LSB first); bytes at or past `end` read as 0. */
export function read32At(src: Uint8Array, end: number, base: number, bit: number): number {
  const b = base + Math.floor(bit / 8);
  const s = bit & 7;
  let v = 0;
  for (let k = 0; k < 5; k++) {
    const idx = b + k;
    if (idx >= end) break;
    const byte = src[idx]!;
    const sh = 8 * k - s;
    v |= sh >= 0 ? (sh < 32 ? byte << sh : 0) : byte >>> -sh;
  }
  return v >>> 0;
}

/** ORs the low `nbits` (1–32) of `v` into `buf` at bit `bit` after byte `base` (the region must start zeroed). */
export function orBits(buf: Uint8Array, base: number, bit: number, v: number, nbits: number): void {
  let p = base + Math.floor(bit / 8);
  let s = bit & 7;
  let left = nbits;
  v = nbits === 32 ? v >>> 0 : (v & ((1 << nbits) - 1)) >>> 0;
  while (left > 0) {
    buf[p] = buf[p]! | ((v << s) & 0xff);
    const took = 8 - s;
    v = took >= 32 ? 0 : v >>> took;
    left -= took;
    s = 0;
    p++;
  }
}

/**
 * Unpacks `n` values of width `w` (33–64) into lo/hi words (`lo[o + k]`, `hi[o + k]`).
 */
export function unpackWide(src: Uint8Array, p: number, end: number, w: number, lo: Int32Array, hi: Int32Array, o: number, n: number): void {
  const hw = w - 32;
  const hmask = hw === 32 ? -1 : (1 << hw) - 1;
  for (let k = 0; k < n; k++) {
    const bit = k * w;
    lo[o + k] = read32At(src, end, p, bit);
    hi[o + k] = read32At(src, end, p, bit + 32) & hmask;
  }
}

/**
 * Packs `n` lo/hi word pairs at width `w` (33–64) into `ceil(n · w / 8)` zeroed-then-filled bytes at `dst[p…]`.
 * @returns the number of bytes written.
 */
export function packWide(lo: Int32Array, hi: Int32Array, i: number, n: number, w: number, dst: Uint8Array, p: number): number {
  const bytes = Math.ceil((n * w) / 8);
  dst.fill(0, p, p + bytes);
  for (let k = 0; k < n; k++) {
    orBits(dst, p, k * w, lo[i + k]!, 32);
    orBits(dst, p, k * w + 32, hi[i + k]!, w - 32);
  }
  return bytes;
}
